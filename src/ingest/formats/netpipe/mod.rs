//! NetPIPE's two outputs: the lines it prints per message size, and the
//! `np.out` file NPtcp writes with `-o`.

pub(in crate::ingest) mod console;
pub(in crate::ingest) mod np_out;
