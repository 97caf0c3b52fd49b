use super::*;

#[test]
fn parses_pairs() {
    let q = Query::parse("?a=1&b=two&c=");
    assert_eq!(q.get("a"), Some("1"));
    assert_eq!(q.get("b"), Some("two"));
    assert_eq!(q.get("c"), Some(""));
    assert_eq!(q.get("d"), None);
    assert_eq!(q.len(), 3);
}

#[test]
fn skips_empty_segments_and_bare_keys() {
    let q = Query::parse("a=1&&flag&");
    assert_eq!(q.len(), 2);
    assert_eq!(q.get("flag"), Some(""));
}

#[test]
fn decodes_escapes() {
    let q = Query::parse("q=hello+world&path=%2Fusr%2fbin&u=%C3%A9t%C3%A9");
    assert_eq!(q.get("q"), Some("hello world"));
    assert_eq!(q.get("path"), Some("/usr/bin"));
    assert_eq!(q.get("u"), Some("été"));
}

#[test]
fn keeps_malformed_escapes() {
    assert_eq!(decode("100%"), "100%");
    assert_eq!(decode("%zz1"), "%zz1");
    assert_eq!(decode("%4"), "%4");
    assert_eq!(decode("a%41"), "aA");
}

#[test]
fn repeated_keys() {
    let q = Query::parse("t=a&x=1&t=b&t=c");
    assert_eq!(q.get("t"), Some("a"));
    assert_eq!(q.get_all("t").collect::<Vec<_>>(), ["a", "b", "c"]);
}

#[test]
fn set_replaces_all_values_in_place() {
    let mut q = Query::parse("t=a&x=1&t=b&y=2&t=c");
    q.set("t", "z");
    assert_eq!(q.to_query_string(), "t=z&x=1&y=2");
    q.set("new", "v");
    assert_eq!(q.to_query_string(), "t=z&x=1&y=2&new=v");
}

#[test]
fn remove_counts() {
    let mut q = Query::parse("a=1&b=2&a=3");
    assert_eq!(q.remove("a"), 2);
    assert_eq!(q.remove("a"), 0);
    assert_eq!(q.to_query_string(), "b=2");
}

#[test]
fn serializes_with_escaping() {
    let mut q = Query::new();
    q.append("name", "Jane Doe").append("next", "/a?b=c&d").append("x", "1.5*2_-");
    assert_eq!(q.to_query_string(), "name=Jane+Doe&next=%2Fa%3Fb%3Dc%26d&x=1.5*2_-");
}

#[test]
fn round_trip() {
    let mut q = Query::new();
    q.append("k y", "v+&=%é").append("", "empty key");
    assert_eq!(Query::parse(&q.to_query_string()), q);
}
