//! Analysis: groups a [`Dataset`](crate::model::Dataset) by (benchmark,
//! params, metric), compares every variant with the baseline and gives each
//! comparison a verdict. The types here are what every report renders.

mod types;

pub use types::*;
