//! Decoding `/proc/sys/kernel/tainted` (see the kernel's
//! `Documentation/admin-guide/tainted-kernels.rst`).

/// One taint bit: letter, meaning, and whether it makes a run suspect.
pub struct TaintBit {
    /// Its bit number in the taint mask.
    pub bit: u32,
    /// The letter the kernel prints for it.
    pub letter: char,
    /// What it says about the kernel.
    pub meaning: &'static str,
    /// The machine misbehaved (oops, warning, MCE, bad page, lockup).
    pub suspect: bool,
}

/// The bits patchperf knows; unknown set bits are reported by number.
pub const BITS: &[TaintBit] = &[
    TaintBit {
        bit: 0,
        letter: 'P',
        meaning: "proprietary module loaded",
        suspect: false,
    },
    TaintBit {
        bit: 1,
        letter: 'F',
        meaning: "module force-loaded",
        suspect: false,
    },
    TaintBit {
        bit: 2,
        letter: 'S',
        meaning: "system out of specification",
        suspect: false,
    },
    TaintBit {
        bit: 3,
        letter: 'R',
        meaning: "module force-unloaded",
        suspect: false,
    },
    TaintBit {
        bit: 4,
        letter: 'M',
        meaning: "machine check exception",
        suspect: true,
    },
    TaintBit {
        bit: 5,
        letter: 'B',
        meaning: "bad page referenced",
        suspect: true,
    },
    TaintBit {
        bit: 6,
        letter: 'U',
        meaning: "tainted from user space",
        suspect: false,
    },
    TaintBit {
        bit: 7,
        letter: 'D',
        meaning: "kernel died recently (oops or BUG)",
        suspect: true,
    },
    TaintBit {
        bit: 8,
        letter: 'A',
        meaning: "ACPI table overridden",
        suspect: false,
    },
    TaintBit {
        bit: 9,
        letter: 'W',
        meaning: "kernel issued a warning",
        suspect: true,
    },
    TaintBit {
        bit: 10,
        letter: 'C',
        meaning: "staging driver loaded",
        suspect: false,
    },
    TaintBit {
        bit: 11,
        letter: 'I',
        meaning: "firmware bug workaround applied",
        suspect: false,
    },
    TaintBit {
        bit: 12,
        letter: 'O',
        meaning: "out-of-tree module loaded",
        suspect: false,
    },
    TaintBit {
        bit: 13,
        letter: 'E',
        meaning: "unsigned module loaded",
        suspect: false,
    },
    TaintBit {
        bit: 14,
        letter: 'L',
        meaning: "soft lockup occurred",
        suspect: true,
    },
    TaintBit {
        bit: 15,
        letter: 'K',
        meaning: "kernel live-patched",
        suspect: false,
    },
    TaintBit {
        bit: 16,
        letter: 'X',
        meaning: "auxiliary (distribution) taint",
        suspect: false,
    },
    TaintBit {
        bit: 17,
        letter: 'T',
        meaning: "built with struct randomisation",
        suspect: false,
    },
    TaintBit {
        bit: 18,
        letter: 'N',
        meaning: "in-kernel tests have run",
        suspect: false,
    },
];

/// The set bits of a mask, known ones with their letter.
pub fn decode(mask: u64) -> Vec<(u32, Option<&'static TaintBit>)> {
    (0..64u32)
        .filter(|b| mask & (1u64 << b) != 0)
        .map(|b| (b, BITS.iter().find(|t| t.bit == b)))
        .collect()
}

/// `none`, or `W (kernel issued a warning), O (out-of-tree module loaded)`.
pub fn describe(mask: u64) -> String {
    let parts: Vec<String> = decode(mask)
        .into_iter()
        .map(|(b, t)| match t {
            Some(t) => format!("{} ({})", t.letter, t.meaning),
            None => format!("bit {b} (unknown)"),
        })
        .collect();
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}

/// True when any bit says the machine misbehaved.
pub fn is_suspect(mask: u64) -> bool {
    decode(mask)
        .iter()
        .any(|(_, t)| t.is_some_and(|t| t.suspect))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_masks() {
        assert_eq!(describe(0), "none");
        assert_eq!(
            describe(512 + 4096),
            "W (kernel issued a warning), O (out-of-tree module loaded)"
        );
        assert_eq!(describe(1 << 40), "bit 40 (unknown)");
        assert!(is_suspect(128));
        assert!(!is_suspect(4096 + 8192));
    }
}
