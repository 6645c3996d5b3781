//! PDF: `report.typ.j2` rendered to typst markup and compiled in-process
//! with the fonts bundled in `typst-assets` (no system fonts, no external
//! binaries). The typst world serves only the report's own files: the main
//! source and the chart SVGs held in memory, never a path on disk.

use super::templates;
use super::view::ReportView;
use crate::error::{Error, Result};
use minijinja::value::{Serde, Value};
use minijinja::Environment;
use std::collections::BTreeMap;
use std::sync::OnceLock;
use typst::diag::{FileError, FileResult};
use typst::foundations::{Bytes, Datetime, Duration};
use typst::syntax::{FileId, RootedPath, Source, VirtualPath, VirtualRoot};
use typst::text::{Font, FontBook};
use typst::utils::LazyHash;
use typst::{Library, LibraryExt, World};

/// Font family the charts use in the PDF: typst-assets has no sans-serif,
/// so DejaVu Sans is embedded from the `dejavu` crate.
pub const CHART_FONT: &str = "DejaVu Sans";

struct Fonts {
    book: LazyHash<FontBook>,
    fonts: Vec<Font>,
}

fn fonts() -> &'static Fonts {
    static FONTS: OnceLock<Fonts> = OnceLock::new();
    FONTS.get_or_init(|| {
        let sans = [
            dejavu::sans::regular(),
            dejavu::sans::bold(),
            dejavu::sans::oblique(),
            dejavu::sans::bold_oblique(),
        ];
        let fonts: Vec<Font> = sans
            .into_iter()
            .chain(typst_assets::fonts())
            .flat_map(|data| Font::iter(Bytes::new(data)))
            .collect();
        Fonts {
            book: LazyHash::new(FontBook::from_fonts(&fonts)),
            fonts,
        }
    })
}

fn library() -> &'static LazyHash<Library> {
    static LIB: OnceLock<LazyHash<Library>> = OnceLock::new();
    LIB.get_or_init(|| LazyHash::new(Library::default()))
}

/// The in-memory world: one main source and the chart files.
struct ReportWorld {
    main: FileId,
    source: Source,
    files: BTreeMap<String, Bytes>,
}

fn file_id(path: &str) -> Option<FileId> {
    let vpath = VirtualPath::new(path).ok()?;
    Some(FileId::new(RootedPath::new(VirtualRoot::Project, vpath)))
}

impl World for ReportWorld {
    fn library(&self) -> &LazyHash<Library> {
        library()
    }
    fn book(&self) -> &LazyHash<FontBook> {
        &fonts().book
    }
    fn main(&self) -> FileId {
        self.main
    }
    fn source(&self, id: FileId) -> FileResult<Source> {
        if id == self.main {
            Ok(self.source.clone())
        } else {
            Err(FileError::AccessDenied)
        }
    }
    fn file(&self, id: FileId) -> FileResult<Bytes> {
        let p = id.get().vpath().get_without_slash().to_string();
        if !matches!(id.get().root(), VirtualRoot::Project) {
            return Err(FileError::AccessDenied);
        }
        self.files.get(&p).cloned().ok_or(FileError::AccessDenied)
    }
    fn font(&self, index: usize) -> Option<Font> {
        fonts().fonts.get(index).cloned()
    }
    fn today(&self, _offset: Option<Duration>) -> Option<Datetime> {
        None
    }
}

/// Renders the typst source of the report (exposed for debugging and tests).
pub fn typst_source(env: &Environment<'_>, view: &ReportView) -> Result<String> {
    let ctx = minijinja::context! { report => Value::from(Serde(view)) };
    templates::render(env, "report.typ.j2", ctx)
}

/// Renders the PDF; `svg` maps chart file names to their SVG text.
pub fn render(
    env: &Environment<'_>,
    view: &ReportView,
    svg: &BTreeMap<String, String>,
) -> Result<Vec<u8>> {
    let text = typst_source(env, view)?;
    compile(&text, svg)
}

/// Compiles typst markup with the given chart files to PDF bytes.
pub fn compile(text: &str, svg: &BTreeMap<String, String>) -> Result<Vec<u8>> {
    let main = file_id("report.typ").ok_or_else(|| Error::Other("typst: bad main path".into()))?;
    let files = svg
        .iter()
        .map(|(k, v)| {
            let v = v.replace(
                "font-family=\"sans-serif\"",
                &format!("font-family=\"{CHART_FONT}\""),
            );
            (k.clone(), Bytes::new(v.into_bytes()))
        })
        .collect();
    let world = ReportWorld {
        main,
        source: Source::new(main, text.to_string()),
        files,
    };
    let warned = typst::compile::<typst_layout::PagedDocument>(&world);
    let doc = warned.output.map_err(|errs| {
        let msgs: Vec<String> = errs
            .iter()
            .map(|d| {
                let at = typst::WorldExt::range(&world, d.span)
                    .map(|r| {
                        let line = text[..r.start.min(text.len())].matches('\n').count() + 1;
                        format!(" (report.typ line {line})")
                    })
                    .unwrap_or_default();
                format!("{}{at}", d.message)
            })
            .collect();
        Error::Other(format!("typst: {}", msgs.join("; ")))
    })?;
    typst_pdf::pdf(&doc, &typst_pdf::PdfOptions::default()).map_err(|errs| {
        let msgs: Vec<String> = errs.iter().map(|d| d.message.to_string()).collect();
        Error::Other(format!("typst PDF export: {}", msgs.join("; ")))
    })
}

/// The PDF [`Renderer`](super::renderer::Renderer).
pub struct Pdf;

impl super::renderer::Renderer for Pdf {
    fn render(&self, r: &super::renderer::Report<'_>) -> Result<Vec<u8>> {
        render(r.env()?, r.view(), r.svg()?)
    }
}
