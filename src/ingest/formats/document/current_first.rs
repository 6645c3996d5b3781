//! A sample followed by the running statistics of all samples so far,
//! the names joined by slashes before both (`usb_request rtt :
//! min/max/mean: 3860718 : 220744/5710327/3372587`), as instrumentation
//! printed once per event prints it: the lone value is the current
//! sample, the slashed ones match the names. Such a line is read as the
//! current value under the words before the names, then the named pairs
//! (`usb_request rtt = 3860718, min = 220744, …`); the slashed reader
//! knew only names directly against their values.

use crate::ingest::shared::pattern::lazy_re;

lazy_re!(
    LEAD,
    r"^(?P<pre>.*?[A-Za-z_].*?)\s*[:=]?\s+(?P<names>[A-Za-z_][\w.%-]*(?:/[A-Za-z_][\w.%-]*)+)\s*[=:]\s*(?P<lead>[-+]?\d[\d.]*)\s*[=:]\s*(?P<rest>[-+]?\d[\d.]*(?:\s*[A-Za-zµ%]+)?(?:\s*/\s*[-+]?\d[\d.]*(?:\s*[A-Za-zµ%]+)?)+\s*(?:[A-Za-zµ%][\w/µ%]*)?\s*)$"
);

/// A line of a current sample and its running statistics written as the
/// current value under the words before the names, then the slashed names
/// against their values (`usb_request rtt = 3860718, min/max/mean =
/// 220744/5710327/3372587`), for the slashed reader to pair one for one;
/// `None` when it is no such line.
pub(super) fn current_first(text: &str) -> Option<String> {
    let c = LEAD.captures(text)?;
    let pre = c["pre"].trim_end_matches([':', '=', ' ', '\t']);
    Some(format!(
        "{pre} = {}, {} = {}",
        &c["lead"], &c["names"], &c["rest"]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::{Format, Source};

    /// Lines of a part-t post: a UVC gadget's request round trip and
    /// frame time, each sample with the minimum, maximum and mean so far.
    #[test]
    fn the_lone_value_comes_first_under_the_words_before_the_names() {
        assert_eq!(
            current_first("usb_request rtt : min/max/mean: 3860718 : 220744/5710327/3372587")
                .as_deref(),
            Some("usb_request rtt = 3860718, min/max/mean = 220744/5710327/3372587")
        );
        assert_eq!(
            current_first("frame time: curr: min/max/mean: 33385376 : 15103638/60926513/33474315")
                .as_deref(),
            Some("frame time: curr = 33385376, min/max/mean = 15103638/60926513/33474315")
        );
        // No current value, no words before the names: left.
        assert_eq!(
            current_first("rtt min/avg/max = 0.040/0.055/0.071 ms"),
            None
        );
        assert_eq!(current_first("min/max/mean: 38 : 22/57/33"), None);
    }

    #[test]
    fn a_document_reads_every_value_of_such_lines() {
        let src = Source::from_text(
            "uvc.txt",
            "1. Unpatched:\n```\nusb_request rtt : min/max/mean: 3860718 : 220744/5710327/3372587\nusb_request rtt : min/max/mean: 3857951 : 220744/5710327/3372587\n```\n\n```\nframe time: curr: min/max/mean: 33385376 : 15103638/60926513/33474315\nframe time: curr: min/max/mean: 31438558 : 15103638/60926513/33472507\n```\n",
        );
        let rows = crate::ingest::formats::document::Document
            .parse(&src)
            .unwrap();
        for v in [
            3860718.0, 220744.0, 5710327.0, 3372587.0, 3857951.0, 33385376.0, 15103638.0,
            60926513.0, 33474315.0, 31438558.0, 33472507.0,
        ] {
            assert!(rows.iter().any(|o| o.value == v), "{v}: {rows:?}");
        }
    }
}
