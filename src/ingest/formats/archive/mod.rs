//! A results archive (`ingest --into DIR`) read as one input: its parts in
//! the manifest's order, each through a polars lazy scan with the Hive
//! partition column restored, whole partitions pruned and the other
//! column conditions of `--filter` pushed into the scan.

pub mod layout;
pub mod manifest;

use crate::error::{Error, Result};
use crate::ingest::formats::tidy::parquet::frame_rows;
use crate::ingest::shared::stack::{with_stack, POLARS_STACK};
use crate::ingest::{Confidence, Format, Parsed, Source};
use crate::model::{Observation, Selection};
use manifest::Manifest;
use polars::prelude::*;
use std::path::{Path, PathBuf};

/// The `archive` format: a folder with a patchperf manifest.
pub struct Archive;

impl Format for Archive {
    fn name(&self) -> &'static str {
        "archive"
    }

    fn description(&self) -> &'static str {
        "patchperf results archive (ingest --into DIR): manifest.json and Hive-partitioned Parquet parts variant=<name>/part-<digest>.parquet"
    }

    fn detect(&self, _src: &Source) -> Confidence {
        0
    }

    fn parse_accounted(&self, src: &Source) -> Result<Parsed> {
        Err(src.error(
            None,
            "an archive is read as a folder; give the archive's folder, not one of its files",
        ))
    }

    fn detect_dir(&self, dir: &Path) -> Confidence {
        if Manifest::is_archive(dir) {
            100
        } else {
            0
        }
    }

    fn dir_parts(&self, dir: &Path, select: &Selection) -> Result<Vec<PathBuf>> {
        let manifest = Manifest::load(dir)?
            .ok_or_else(|| Error::input(dir, None, "no archive manifest.json in this folder"))?;
        Ok(manifest
            .inputs
            .iter()
            .flat_map(|e| &e.parts)
            .map(PathBuf::from)
            .filter(|p| layout::variant_of(p).is_none_or(|v| select.admits(layout::PARTITION, &v)))
            .collect())
    }

    fn parse_dir_part(
        &self,
        dir: &Path,
        part: &Path,
        select: &Selection,
    ) -> Result<Vec<Observation>> {
        let root = std::path::absolute(dir).map_err(|e| Error::io(dir, e))?;
        let path = root.join(part);
        let display = crate::model::shown_path(&path);
        let bad = |e: PolarsError| Error::input(&path, None, format!("archive part: {e}"));
        let query = || -> PolarsResult<DataFrame> {
            let mut frame = scan(&root, &path)?;
            for t in select.terms() {
                if t.column == layout::PARTITION {
                    continue;
                }
                let same = col(t.column)
                    .str()
                    .to_lowercase()
                    .eq(lit(t.value.to_lowercase()));
                frame = frame.filter(if t.equal { same } else { same.not() });
            }
            frame.collect()
        };
        let frame = with_stack(POLARS_STACK, query)?.map_err(bad)?;
        frame_rows(&frame, &display)
    }
}

/// A lazy scan of one part, its partition column read from its path as text
/// (a variant `6.10` is a name, not a number to infer).
fn scan(root: &Path, part: &Path) -> PolarsResult<LazyFrame> {
    let text = part.to_string_lossy().into_owned();
    let prefix = root.to_string_lossy().len() + 1;
    let schema = Schema::from_iter([Field::new(layout::PARTITION.into(), DataType::String)]);
    let args = ScanArgsParquet {
        hive_options: HiveOptions {
            enabled: Some(true),
            hive_start_idx: prefix,
            schema: Some(Arc::new(schema)),
            try_parse_dates: false,
        },
        ..Default::default()
    };
    LazyFrame::scan_parquet(PlRefPath::new(text), args)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::append::{append, AppendOptions};
    use crate::ingest::Registry;
    use crate::model::SelectTerm;

    #[test]
    fn partitions_are_pruned_and_column_terms_pushed_into_the_scan() {
        let tmp = tempfile::tempdir().unwrap();
        let registry = Registry::builtin();
        for v in ["base", "patched"] {
            let log = tmp.path().join(format!("{v}.txt"));
            std::fs::write(
                &log,
                "Running in process mode with 10 groups using 40 file descriptors each (== 400 tasks)\n\
                 Each sender will pass 100 messages of 100 bytes\nTime: 0.5\nTime: 0.6\n",
            )
            .unwrap();
            append(
                &tmp.path().join("a"),
                &[log],
                &registry,
                &AppendOptions::default(),
            )
            .unwrap();
        }
        let dir = tmp.path().join("a");
        let term = |column, value: &str, equal| SelectTerm {
            column,
            value: value.into(),
            equal,
        };
        let all = Archive.dir_parts(&dir, &Selection::default()).unwrap();
        assert_eq!(all.len(), 2);
        let only = Selection::new(vec![term("variant", "PATCHED", true)]);
        let kept = Archive.dir_parts(&dir, &only).unwrap();
        assert_eq!(kept, [PathBuf::from(&all[1])]);
        let rows = Archive
            .parse_dir_part(&dir, &kept[0], &Selection::default())
            .unwrap();
        assert!(rows.len() >= 2 && rows.iter().all(|o| o.variant == "patched"));
        let none = Selection::new(vec![term("metric", "TIME", false)]);
        let left = Archive.parse_dir_part(&dir, &kept[0], &none).unwrap();
        assert!(left.iter().all(|o| o.metric != "time"));
        assert!(left.len() < rows.len());
    }
}
