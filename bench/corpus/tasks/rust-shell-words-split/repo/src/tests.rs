use super::*;

fn split_ok(cases: &[(&str, &[&str])]) {
    for &(input, expected) in cases {
        match split(input) {
            Err(actual) => {
                panic!(
                    "After split({:?})\nexpected: Ok({:?})\n  actual: Err({:?})\n",
                    input, expected, actual
                );
            }
            Ok(actual) => {
                assert!(
                    expected == actual.as_slice(),
                    "After split({:?}).unwrap()\nexpected: {:?}\n  actual: {:?}\n",
                    input,
                    expected,
                    actual
                );
            }
        }
    }
}

#[test]
fn split_empty() {
    split_ok(&[("", &[])]);
}

#[test]
fn split_initial_whitespace_is_removed() {
    split_ok(&[
        ("     a", &["a"]),
        ("\t\t\t\tbar", &["bar"]),
        ("\t \nc", &["c"]),
    ]);
}

#[test]
fn split_trailing_whitespace_is_removed() {
    split_ok(&[
        ("a  ", &["a"]),
        ("b\t", &["b"]),
        ("c\t \n \n \n", &["c"]),
        ("d\n\n", &["d"]),
    ]);
}

#[test]
fn split_carriage_return_is_not_special() {
    split_ok(&[("c\ra\r'\r'\r", &["c\ra\r\r\r"])]);
}

#[test]
fn split_single_quotes() {
    split_ok(&[
        (r#"''"#, &[r#""#]),
        (r#"'a'"#, &[r#"a"#]),
        (r#"'\'"#, &[r#"\"#]),
        (r#"' \ '"#, &[r#" \ "#]),
        (r#"'#'"#, &[r#"#"#]),
    ]);
}

#[test]
fn split_double_quotes() {
    split_ok(&[
        (r#""""#, &[""]),
        (r#""""""#, &[""]),
        (r#""a b c' d""#, &["a b c' d"]),
        (r#""\a""#, &["\\a"]),
        (r#""$""#, &["$"]),
        (r#""\$""#, &["$"]),
        (r#""`""#, &["`"]),
        (r#""\`""#, &["`"]),
        (r#""\"""#, &["\""]),
        (r#""\\""#, &["\\"]),
        ("\"\n\"", &["\n"]),
        ("\"\\\n\"", &[""]),
    ]);
}

#[test]
fn split_unquoted() {
    split_ok(&[
        (r#"\|\&\;"#, &[r#"|&;"#]),
        (r#"\<\>"#, &[r#"<>"#]),
        (r#"\(\)"#, &[r#"()"#]),
        (r#"\$"#, &[r#"$"#]),
        (r#"\`"#, &[r#"`"#]),
        (r#"\""#, &[r#"""#]),
        (r#"\'"#, &[r#"'"#]),
        ("\\\n", &[]),
        (" \\\n \n", &[]),
        ("a\nb\nc", &["a", "b", "c"]),
        ("a\\\nb\\\nc", &["abc"]),
        ("foo bar baz", &["foo", "bar", "baz"]),
        (r#"\🦉"#, &[r"🦉"]),
    ]);
}

#[test]
fn split_trailing_backslash() {
    split_ok(&[("\\", &["\\"]), (" \\", &["\\"]), ("a\\", &["a\\"])]);
}

#[test]
fn split_errors() {
    assert_eq!(split("'abc"), Err(ParseError));
    assert_eq!(split("\""), Err(ParseError));
    assert_eq!(split("'\\"), Err(ParseError));
    assert_eq!(split("'\\"), Err(ParseError));
}

#[test]
fn split_comments() {
    split_ok(&[
        (r#" x # comment "#, &["x"]),
        (r#" w1#w2 "#, &["w1#w2"]),
        (r#"'not really a # comment'"#, &["not really a # comment"]),
        (" a # very long comment \n b # another comment", &["a", "b"]),
    ]);
}

#[test]
fn test_quote() {
    assert_eq!(quote(""), "''");
    assert_eq!(quote("'"), "''\\'''");
    assert_eq!(quote("abc"), "abc");
    assert_eq!(quote("a \n  b"), "'a \n  b'");
    assert_eq!(quote("X'\nY"), "'X'\\''\nY'");
    assert_eq!(quote("~root"), "'~root'");
}

#[test]
fn test_join() {
    assert_eq!(join(&["a", "b", "c"]), "a b c");
    assert_eq!(join(&[" ", "$", "\n"]), "' ' '$' '\n'");
}

#[test]
fn join_followed_by_split_is_identity() {
    let cases: Vec<&[&str]> = vec![
        &["a"],
        &["python", "-c", "print('Hello world!')"],
        &["echo", " arg with spaces ", "arg \' with \" quotes"],
        &["even newlines are quoted correctly\n", "\n", "\n\n\t "],
        &["$", "`test`"],
        &["cat", "~user/log*"],
        &["test", "'a \"b", "\"X'"],
        &["empty", "", "", ""],
    ];
    for argv in cases {
        let args = join(argv);
        assert_eq!(split(&args).unwrap(), argv);
    }
}
