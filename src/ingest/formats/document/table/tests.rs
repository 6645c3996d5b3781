use super::*;

#[test]
fn header_cells() {
    let r = roles(
        &[
            "threads",
            "baseline time (ms)",
            "stddev",
            "patched time (ms)",
            "stddev",
            "overhead",
        ]
        .map(String::from),
        false,
    );
    assert_eq!(r[0], Role::Param("threads".into()));
    let Role::Value(v) = &r[1] else { panic!() };
    assert_eq!(
        (v.variant.as_deref(), v.metric.as_deref(), v.unit.as_deref()),
        (Some("baseline"), Some("time"), Some("ms"))
    );
    assert_eq!(r[2], Role::Spread(Stat::Stddev));
    assert_eq!(r[5], Role::Change);
    let r = roles(&["atomicops time (ms) [stddev]".to_string()], false);
    let Role::Value(v) = &r[0] else { panic!() };
    assert_eq!(
        (v.variant.as_deref(), v.bracket),
        (Some("atomicops"), Some(Stat::Stddev))
    );
    let r = roles(
        &["Latency (us)", "min", "avg", "stddev"].map(String::from),
        true,
    );
    assert_eq!(
        r[0],
        Role::Label {
            metric: Some("latency".into()),
            unit: Some("us".into())
        }
    );
    let Role::Value(v) = &r[2] else { panic!() };
    assert_eq!(v.stat, Some(Stat::Mean));
    // `stddev` after a stat column is its own stat, not a spread.
    assert!(matches!(&r[3], Role::Spread(Stat::Stddev)));
    let r = roles(&["no lock prefix (s)", "tps"].map(String::from), false);
    let Role::Value(v) = &r[0] else { panic!() };
    assert_eq!(
        (v.variant.as_deref(), v.metric.as_deref(), v.unit.as_deref()),
        (Some("no lock prefix"), None, Some("s"))
    );
    let Role::Value(v) = &r[1] else { panic!() };
    assert_eq!(
        (v.variant.as_deref(), v.metric.as_deref()),
        (None, Some("tps"))
    );
}

#[test]
fn a_value_and_its_spread_under_one_header_and_a_stat_before_its_metric() {
    let r = roles(
        &["Latency +/- SD (ms)", "Max Latency"].map(String::from),
        false,
    );
    let Role::Value(v) = &r[0] else { panic!() };
    assert_eq!(
        (
            v.variant.as_deref(),
            v.metric.as_deref(),
            v.unit.as_deref(),
            v.bracket,
            v.stat
        ),
        (None, Some("latency"), Some("ms"), Some(Stat::Stddev), None)
    );
    let Role::Value(v) = &r[1] else { panic!() };
    assert_eq!(
        (v.variant.as_deref(), v.metric.as_deref(), v.stat),
        (None, Some("latency"), Some(Stat::Max))
    );
}

#[test]
fn a_build_named_this_change_is_a_variant_and_mtu_a_parameter() {
    let r = roles(
        &["MTU", "baseline", "this change", "improvement", "% change"].map(String::from),
        false,
    );
    assert_eq!(r[0], Role::Param("mtu".into()));
    let Role::Value(v) = &r[2] else {
        panic!("{:?}", r[2])
    };
    assert_eq!((v.variant.as_deref(), v.stat), (Some("this change"), None));
    assert_eq!(r[3], Role::Change);
    assert_eq!(r[4], Role::Change);
    // Without a determiner the last word still names the stat.
    let r = roles(&["patched change".to_string()], false);
    let Role::Value(v) = &r[0] else { panic!() };
    assert_eq!(v.stat, Some(Stat::ChangePct));
}
