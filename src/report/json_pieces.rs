//! The pretty-printing both JSON outputs (`report.json`, `compare --json`)
//! share: serde_json's pretty layout, built in pieces so that a long array
//! is serialised on all threads.

use crate::error::{Error, Result};
use rayon::prelude::*;
use serde::Serialize;
use serde_json::ser::{Formatter, Serializer};
use std::io::{self, Write};

/// Array elements serialised together on one thread: enough work to be
/// worth handing to another thread, few enough pieces to write cheaply.
const ELEMENTS_PER_PIECE: usize = 64;

/// Arrays shorter than this are serialised on the calling thread: waking
/// the pool costs more than the work.
const PARALLEL_ELEMENTS: usize = 256;

/// Array elements serialised before a streaming document writes them out:
/// enough to keep every thread busy, few enough that the bytes held stay
/// small (a comparison is about 900 bytes of JSON).
const ELEMENTS_PER_WINDOW: usize = 16_384;

/// A JSON document built in pieces, in order: written one after another they
/// are the document's bytes. Long arrays are serialised piece by piece on
/// all threads and never copied into one buffer. A streaming document
/// ([`Pieces::streaming`]) writes its pieces out a window of elements at a
/// time, so that a run of millions of comparisons never holds its JSON.
#[derive(Default)]
pub struct Pieces<'w> {
    held: Vec<Vec<u8>>,
    sink: Option<Sink<'w>>,
}

/// Where a streaming document writes, and the name its errors give.
struct Sink<'w> {
    out: &'w mut dyn Write,
    name: std::path::PathBuf,
}

impl<'w> Pieces<'w> {
    /// No bytes yet; the pieces are held until [`Pieces::into_bytes`] or
    /// [`Pieces::write_to`].
    pub fn new() -> Self {
        Pieces::default()
    }

    /// No bytes yet; pieces are written to `out` as soon as they are
    /// complete, the rest by [`Pieces::finish`]. I/O errors name `name`.
    pub fn streaming(out: &'w mut dyn Write, name: impl Into<std::path::PathBuf>) -> Self {
        Pieces {
            held: Vec::new(),
            sink: Some(Sink {
                out,
                name: name.into(),
            }),
        }
    }

    /// Writes what a streaming document holds; nothing for one in memory.
    fn drain(&mut self) -> Result<()> {
        if let Some(sink) = &mut self.sink {
            for p in self.held.drain(..) {
                sink.out
                    .write_all(&p)
                    .map_err(|e| Error::io(sink.name.clone(), e))?;
            }
        }
        Ok(())
    }

    /// Writes the rest of a streaming document and flushes its writer.
    pub fn finish(mut self) -> Result<()> {
        self.drain()?;
        if let Some(sink) = &mut self.sink {
            sink.out
                .flush()
                .map_err(|e| Error::io(sink.name.clone(), e))?;
        }
        Ok(())
    }

    /// Appends literal bytes (punctuation and keys between values).
    pub fn push_raw(&mut self, bytes: &[u8]) {
        match self.held.last_mut() {
            // Small literals join the piece before them.
            Some(last) if bytes.len() < 256 => last.extend_from_slice(bytes),
            _ => self.held.push(bytes.to_vec()),
        }
    }

    /// Appends `value` pretty-printed as serde_json's pretty printer writes
    /// it `depth` levels deep in a document (two spaces per level).
    pub fn push_value<T: Serialize + ?Sized>(&mut self, value: &T, depth: usize) -> Result<()> {
        let mut buf = self.held.pop().unwrap_or_default();
        write_nested(&mut buf, value, depth)?;
        self.held.push(buf);
        Ok(())
    }

    /// Appends the array of `element(item)` for every item, pretty-printed
    /// `depth` levels deep: the bytes serde_json's pretty printer writes for
    /// the whole array there. A long array's elements are serialised on all
    /// threads, in pieces joined in order.
    pub fn push_array<'a, I, T, F>(
        &mut self,
        items: &'a [I],
        depth: usize,
        element: F,
    ) -> Result<()>
    where
        I: Sync,
        T: Serialize,
        F: Fn(&'a I) -> T + Sync,
    {
        if items.is_empty() {
            self.push_raw(b"[]");
            return Ok(());
        }
        // Each element starts on a new line one level deeper than the
        // brackets; the closing bracket on its own line at `depth`.
        let piece = |first: bool, chunk: &'a [I]| -> Result<Vec<u8>> {
            let mut buf = Vec::with_capacity(chunk.len() * 1024);
            for (j, item) in chunk.iter().enumerate() {
                buf.extend_from_slice(if first && j == 0 { b"\n" } else { b",\n" });
                indent(&mut buf, depth + 1);
                write_nested(&mut buf, &element(item), depth + 1)?;
            }
            Ok(buf)
        };
        self.push_raw(b"[");
        // A document in memory takes the whole array as one window.
        let window = if self.sink.is_some() {
            ELEMENTS_PER_WINDOW
        } else {
            items.len()
        };
        for (w, items) in items.chunks(window).enumerate() {
            let at = |(i, chunk): (usize, &'a [I])| piece(w == 0 && i == 0, chunk);
            let pieces: Vec<Result<Vec<u8>>> = if items.len() < PARALLEL_ELEMENTS {
                items
                    .chunks(ELEMENTS_PER_PIECE)
                    .enumerate()
                    .map(at)
                    .collect()
            } else {
                items
                    .par_chunks(ELEMENTS_PER_PIECE)
                    .enumerate()
                    .map(at)
                    .collect()
            };
            for p in pieces {
                self.held.push(p?);
            }
            self.drain()?;
        }
        let mut close = b"\n".to_vec();
        indent(&mut close, depth);
        close.push(b']');
        self.push_raw(&close);
        Ok(())
    }

    /// Total length of the bytes held (all of them, in memory).
    pub fn len(&self) -> usize {
        self.held.iter().map(Vec::len).sum()
    }

    /// Whether there are no bytes.
    pub fn is_empty(&self) -> bool {
        self.held.iter().all(Vec::is_empty)
    }

    /// Writes every piece held, in order.
    pub fn write_to<W: Write + ?Sized>(&self, w: &mut W) -> io::Result<()> {
        for p in &self.held {
            w.write_all(p)?;
        }
        Ok(())
    }

    /// The document's bytes in one buffer.
    pub fn into_bytes(self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len());
        for p in self.held {
            out.extend_from_slice(&p);
        }
        out
    }
}

/// Writes `value` as serde_json's pretty printer (two-space indent) writes it
/// `depth` levels deep in a document: the first line unindented (the caller
/// wrote what precedes it), every further line indented by its level.
pub fn write_nested<T: Serialize + ?Sized>(
    buf: &mut Vec<u8>,
    value: &T,
    depth: usize,
) -> Result<()> {
    let mut ser = Serializer::with_formatter(
        buf,
        Nested {
            depth,
            has_value: false,
        },
    );
    value
        .serialize(&mut ser)
        .map_err(|e| Error::Other(format!("JSON: {e}")))
}

/// Two spaces per level.
fn indent(buf: &mut Vec<u8>, depth: usize) {
    buf.extend(std::iter::repeat_n(b' ', 2 * depth));
}

/// serde_json's `PrettyFormatter` with a two-space indent, started `depth`
/// levels deep (its own level is private): the same bytes at every level.
struct Nested {
    depth: usize,
    has_value: bool,
}

impl Formatter for Nested {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            w.write_all(b"\n")?;
            write_indent(w, self.depth)?;
        }
        w.write_all(b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        w.write_all(if first { b"\n" } else { b",\n" })?;
        write_indent(w, self.depth)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            w.write_all(b"\n")?;
            write_indent(w, self.depth)?;
        }
        w.write_all(b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        w.write_all(if first { b"\n" } else { b",\n" })?;
        write_indent(w, self.depth)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// [`indent`] through a writer.
fn write_indent<W: ?Sized + Write>(w: &mut W, depth: usize) -> io::Result<()> {
    const SPACES: &[u8] = &[b' '; 64];
    let mut n = 2 * depth;
    while n > 0 {
        let k = n.min(SPACES.len());
        w.write_all(&SPACES[..k])?;
        n -= k;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A value with every JSON shape: nested objects and arrays, empty
    /// ones, strings needing escapes, floats, integers, null, booleans.
    fn sample(i: usize) -> serde_json::Value {
        json!({
            "name": format!("bench{i} \"quoted\"\n\ttab \u{1} é"),
            "x": i as f64 * 0.1 + 1e-300,
            "big": 1.0e21 * i as f64,
            "n": i,
            "neg": -(i as i64),
            "none": null,
            "flag": i.is_multiple_of(2),
            "empty_obj": {},
            "empty_arr": [],
            "arr": [1, [2, [3, {}]], {"k": [null]}],
            "deep": {"a": {"b": {"c": [i, i + 1]}}},
        })
    }

    #[test]
    fn nested_value_matches_serde_pretty_at_every_depth() {
        let v = sample(7);
        // The value wrapped `d` times in `{"k": …}` by serde itself is the
        // reference; ours is what lies between the wrappers.
        for d in 0..5 {
            let mut doc = v.clone();
            for _ in 0..d {
                doc = json!({ "k": doc });
            }
            let reference = serde_json::to_string_pretty(&doc).unwrap();
            let mut buf = Vec::new();
            write_nested(&mut buf, &v, d).unwrap();
            let mut expect = String::new();
            for lvl in 1..=d {
                expect.push_str(&format!("{{\n{}\"k\": ", "  ".repeat(lvl)));
            }
            expect.push_str(std::str::from_utf8(&buf).unwrap());
            for lvl in (0..d).rev() {
                expect.push_str(&format!("\n{}}}", "  ".repeat(lvl)));
            }
            assert_eq!(expect, reference, "depth {d}");
        }
    }

    #[derive(Serialize)]
    struct Doc<'a> {
        items: Vec<serde_json::Value>,
        tail: &'a [u32],
    }

    /// The document's pieces, built as `compare --json` builds its own.
    fn pieces_of(items: &[serde_json::Value], tail: &[u32]) -> Vec<u8> {
        let mut p = Pieces::new();
        p.push_raw(b"{\n  \"items\": ");
        p.push_array(items, 1, |v| v.clone()).unwrap();
        p.push_raw(b",\n  \"tail\": ");
        p.push_value(tail, 1).unwrap();
        p.push_raw(b"\n}");
        let len = p.len();
        let mut written = Vec::new();
        p.write_to(&mut written).unwrap();
        let bytes = p.into_bytes();
        assert_eq!(written, bytes);
        assert_eq!(len, bytes.len());
        bytes
    }

    #[test]
    fn arrays_match_serde_pretty_for_every_length_and_piece_boundary() {
        // Lengths around the piece size and the parallel threshold, and
        // empty arrays (serde writes `[]`).
        let all: Vec<serde_json::Value> = (0..700).map(sample).collect();
        for n in [0, 1, 2, 63, 64, 65, 128, 255, 256, 257, 700] {
            for tail in [&[][..], &[1, 2, 3][..]] {
                let items = &all[..n];
                let reference = serde_json::to_string_pretty(&Doc {
                    items: items.to_vec(),
                    tail,
                })
                .unwrap();
                let ours = pieces_of(items, tail);
                assert_eq!(
                    String::from_utf8(ours).unwrap(),
                    reference,
                    "{n} items, tail {tail:?}"
                );
            }
        }
    }

    #[test]
    fn a_streaming_document_writes_the_same_bytes_across_windows() {
        // More elements than a window and than the parallel threshold,
        // a window boundary included, and a tail after the array.
        let items: Vec<serde_json::Value> = (0..2 * ELEMENTS_PER_WINDOW + 3)
            .map(|i| json!({ "i": i, "x": i as f64 / 3.0 }))
            .collect();
        let tail = [1u32, 2];
        let reference = serde_json::to_string_pretty(&Doc {
            items: items.clone(),
            tail: &tail,
        })
        .unwrap();
        let mut out = Vec::new();
        let mut p = Pieces::streaming(&mut out, "x.json");
        p.push_raw(b"{\n  \"items\": ");
        p.push_array(&items, 1, |v| v.clone()).unwrap();
        // Only what follows the last window is still held.
        assert!(p.len() < 100, "{} bytes held", p.len());
        p.push_raw(b",\n  \"tail\": ");
        p.push_value(&tail[..], 1).unwrap();
        p.push_raw(b"\n}");
        p.finish().unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), reference);
    }

    #[test]
    fn a_write_error_names_the_destination() {
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::other("disk full"))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let mut full = Full;
        let mut p = Pieces::streaming(&mut full, "out/compare.json");
        p.push_raw(b"[");
        let err = p.finish().unwrap_err().to_string();
        assert!(err.contains("out/compare.json"), "{err}");
    }

    #[test]
    fn an_element_that_fails_to_serialise_is_an_error_not_a_panic() {
        use std::collections::HashMap;
        // serde_json rejects maps whose keys are not strings.
        let bad: Vec<HashMap<Vec<u8>, u8>> = (0..300)
            .map(|i| HashMap::from([(vec![i as u8], 1)]))
            .collect();
        let mut p = Pieces::new();
        let err = p.push_array(&bad, 1, |m| m.clone()).unwrap_err();
        assert!(err.to_string().contains("JSON"), "{err}");
    }

    #[test]
    fn indents_deeper_than_the_space_table() {
        let mut a = Vec::new();
        indent(&mut a, 40);
        assert_eq!(a, vec![b' '; 80]);
        let mut b = Vec::new();
        write_indent(&mut b, 40).unwrap();
        assert_eq!(a, b);
    }
}
