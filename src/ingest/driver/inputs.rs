//! The units of work: files, parts of folders a directory format reads,
//! and pieces of large files; and how paths, folders and globs expand to them.

use super::pieces;
use super::pieces::PiecedFile;
use super::types::IngestOptions;
use crate::error::{Error, Result};
use crate::ingest::Registry;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One unit of work: a file, or a part of a folder a directory format
/// claims (read a few parts at a time, like files, so that a large tree is
/// never held whole).
pub(super) enum Input {
    /// A file and its size in bytes.
    File(PathBuf, u64),
    /// A part of a folder (see [`crate::ingest::Format::dir_parts`]); `first` for
    /// the folder's first part, which opens its report.
    Part {
        dir: Arc<DirInput>,
        part: PathBuf,
        first: bool,
    },
    /// A piece of a large file (see [`pieces`]); the one at byte 0 opens
    /// the file's report.
    Piece {
        file: Arc<PiecedFile>,
        piece: pieces::Piece,
    },
}

/// A folder read by a directory format, shared by its parts.
pub(super) struct DirInput {
    pub(super) path: PathBuf,
    pub(super) format: String,
}

/// What a part of a folder counts for in a window. Its files are not
/// measured (a `stat` each would cost about as much as reading them), and
/// by its bytes of text a window would take a 9 MB Criterion tree nearly
/// whole. 64 KiB makes a window 64 parts per thread: ~13,000 rows of
/// Criterion runs (2.4 MB) per window. Four times as many parts per window
/// made no faster ingest but doubled the peak memory (26 -> 46-68 MiB with
/// Parquet output, a 2,000-benchmark tree). The Parquet file, in row
/// groups of a window each, is 14% larger than in one group.
pub(super) const DIR_PART_BYTES: u64 = 64 << 10;

/// What an input counts for in a window and in [`Progress`]: its bytes,
/// [`DIR_PART_BYTES`] for a part of a folder, a piece's bytes times its
/// file's weight.
pub(super) fn input_bytes(input: &Input) -> u64 {
    match input {
        Input::File(_, size) => *size,
        Input::Part { .. } => DIR_PART_BYTES,
        Input::Piece { piece, file } => (piece.bytes.end - piece.bytes.start) * file.weight,
    }
}

/// The bytes an input holds, for progress (a folder part counts as its
/// window share, since its files are listed only when it is read).
pub(super) fn input_size(input: &Input) -> u64 {
    match input {
        Input::File(_, size) => *size,
        Input::Part { .. } => DIR_PART_BYTES,
        Input::Piece { piece, .. } => piece.bytes.end - piece.bytes.start,
    }
}

/// Adds the inputs `p` names to `out`: a file, a folder's files (or the
/// parts of a folder a directory format claims), or a glob's matches.
pub(super) fn expand(
    p: &Path,
    registry: &Registry,
    opts: &IngestOptions,
    out: &mut Vec<Input>,
) -> Result<()> {
    let s = p.to_string_lossy();
    if !p.exists() && s.contains(['*', '?', '[']) {
        let mut found = false;
        let entries = glob::glob(&s).map_err(|e| Error::Usage(format!("bad glob `{s}`: {e}")))?;
        for entry in entries.flatten() {
            found = true;
            expand(&entry, registry, opts, out)?;
        }
        if !found {
            return Err(Error::Usage(format!("{s}: no file matches")));
        }
        return Ok(());
    }
    let meta = std::fs::metadata(p).map_err(|e| Error::io(p, e))?;
    if meta.is_dir() {
        let forced = opts.format.as_deref().and_then(|n| registry.get(n));
        let dir_format = match forced {
            Some(f) if f.detect_dir(p) > 0 => Some(f),
            Some(_) => None,
            None => registry.detect_dir(p),
        };
        if let Some(f) = dir_format {
            let dir = Arc::new(DirInput {
                path: p.to_path_buf(),
                format: f.name().to_string(),
            });
            let parts = f.dir_parts(p, &opts.selection)?;
            out.extend(parts.into_iter().enumerate().map(|(i, part)| Input::Part {
                dir: dir.clone(),
                part,
                first: i == 0,
            }));
            return Ok(());
        }
        let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
            .map_err(|e| Error::io(p, e))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|e| {
                !e.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with('.'))
            })
            .collect();
        entries.sort();
        for e in entries {
            expand(&e, registry, opts, out)?;
        }
    } else {
        out.push(Input::File(p.to_path_buf(), meta.len()));
    }
    Ok(())
}

/// The inputs with each large file that can be read in pieces replaced by
/// its pieces ([`pieces::plan`]). Planning reads a file once; the large
/// files of a folder are planned in parallel.
pub(super) fn cut_large(
    inputs: Vec<Input>,
    registry: &Registry,
    opts: &IngestOptions,
    piece_bytes: usize,
) -> Result<Vec<Input>> {
    let large =
        |i: &Input| matches!(i, Input::File(_, size) if pieces::worth_planning(*size, piece_bytes));
    if !inputs.iter().any(large) {
        return Ok(inputs);
    }
    let planned: Vec<Result<Vec<Input>>> = inputs
        .into_par_iter()
        .with_max_len(1)
        .map(|input| match input {
            Input::File(path, size) if pieces::worth_planning(size, piece_bytes) => Ok(
                match pieces::plan(&path, size, registry, opts, piece_bytes)? {
                    Some((file, cut)) => cut
                        .into_iter()
                        .map(|piece| Input::Piece {
                            file: file.clone(),
                            piece,
                        })
                        .collect(),
                    None => vec![Input::File(path, size)],
                },
            ),
            other => Ok(vec![other]),
        })
        .collect();
    let mut out = Vec::with_capacity(planned.len());
    for p in planned {
        out.extend(p?);
    }
    Ok(out)
}
