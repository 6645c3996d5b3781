//! How a series of a [`super::Dataset`] keeps its line numbers and run
//! indices. Most series are a harness's samples: one line for every row
//! (0, unknown, for a structured document) and runs 0, 1, 2, …; kept as
//! that rule they cost nothing, and a sample is its 8-byte value alone.
//! A series whose rows break the rule keeps one entry a row.

/// A per-row `u32` column of one series, as the dataset keeps it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Kept {
    /// Every row holds this value.
    Same(u32),
    /// Row `i` holds `first + i`.
    Counting(u32),
    /// Row `i` holds entry `at + i` of the dataset's column.
    At(usize),
}

impl Kept {
    /// The value of row `i` of a series kept as a rule (`At` has no rule).
    fn rule(self, i: usize) -> u32 {
        match self {
            Kept::Same(v) => v,
            Kept::Counting(first) => first.wrapping_add(i as u32),
            Kept::At(_) => unreachable!("a column kept per row has no rule"),
        }
    }

    /// Whether row `i` holding `v` follows the rule.
    fn fits(self, i: usize, v: u32) -> bool {
        match self {
            Kept::Same(s) => s == v,
            Kept::Counting(first) => u64::from(first) + i as u64 == u64::from(v),
            Kept::At(_) => false,
        }
    }

    /// Records `v` as row `i` (the series' length so far) of the series
    /// kept as `self`, whose per-row entries go to `column`: nothing is
    /// stored while the rows follow the rule; the first row that breaks
    /// it writes out the rows before it and keeps every row from then on.
    pub(super) fn push(&mut self, column: &mut Vec<u32>, i: usize, v: u32) {
        match *self {
            Kept::At(_) => column.push(v),
            rule if rule.fits(i, v) => {}
            rule => {
                let at = column.len();
                column.extend((0..i).map(|k| rule.rule(k)));
                column.push(v);
                *self = Kept::At(at);
            }
        }
    }

    /// The view of a series of `len` rows, whose per-row entries (if any)
    /// are in `column`.
    pub(super) fn view(self, column: &[u32], len: usize) -> View<'_> {
        match self {
            Kept::Same(v) => View::Same(v),
            Kept::Counting(first) => View::Counting(first),
            Kept::At(at) => View::Each(&column[at..at + len]),
        }
    }

    /// `self` once the dataset's column has `base` entries more before
    /// this series' (another dataset's series appended).
    pub(super) fn shifted(self, base: usize) -> Kept {
        match self {
            Kept::At(at) => Kept::At(at + base),
            rule => rule,
        }
    }
}

/// A per-row `u32` column of one series, for reading.
#[derive(Debug, Clone, Copy)]
pub(super) enum View<'a> {
    Same(u32),
    Counting(u32),
    Each(&'a [u32]),
}

impl View<'_> {
    /// The value of row `i`.
    pub(super) fn get(self, i: usize) -> u32 {
        match self {
            View::Same(v) => v,
            View::Counting(first) => first.wrapping_add(i as u32),
            View::Each(s) => s[i],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows that follow the rule store nothing; the first that breaks it
    /// writes out the rows before it, and every row reads back.
    #[test]
    fn rules_hold_until_a_row_breaks_them() {
        let mut column = vec![7, 7];
        let mut kept = Kept::Counting(3);
        for (i, v) in [3, 4, 5].into_iter().enumerate() {
            kept.push(&mut column, i, v);
        }
        assert_eq!((kept, column.len()), (Kept::Counting(3), 2));
        kept.push(&mut column, 3, 9);
        assert_eq!(kept, Kept::At(2));
        kept.push(&mut column, 4, 10);
        let got: Vec<u32> = (0..5).map(|i| kept.view(&column, 5).get(i)).collect();
        assert_eq!(got, [3, 4, 5, 9, 10]);
        let mut same = Kept::Same(0);
        same.push(&mut column, 0, 0);
        same.push(&mut column, 1, 0);
        assert_eq!(same, Kept::Same(0));
        same.push(&mut column, 2, 5);
        let got: Vec<u32> = (0..3).map(|i| same.view(&column, 3).get(i)).collect();
        assert_eq!(got, [0, 0, 5]);
        assert_eq!(Kept::At(1).shifted(4), Kept::At(5));
        assert_eq!(Kept::Same(2).shifted(4), Kept::Same(2));
    }
}
