//! Parsing and building `application/x-www-form-urlencoded` query strings.

/// An ordered list of query parameters. Keys may repeat.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Query {
    pairs: Vec<(String, String)>,
}

impl Query {
    pub fn new() -> Self {
        Self::default()
    }

    /// Parses `s`, with or without a leading `?`. Empty segments (`a=1&&b=2`)
    /// are skipped; a segment without `=` has an empty value. Malformed
    /// percent escapes are kept literally.
    pub fn parse(s: &str) -> Query {
        let s = s.strip_prefix('?').unwrap_or(s);
        let pairs = s
            .split('&')
            .filter(|seg| !seg.is_empty())
            .map(|seg| {
                let (k, v) = seg.split_once('=').unwrap_or((seg, ""));
                (decode(k), decode(v))
            })
            .collect();
        Query { pairs }
    }

    /// First value for `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// All values for `key`, in order.
    pub fn get_all<'a>(&'a self, key: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.pairs
            .iter()
            .filter(move |(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Appends a parameter.
    pub fn append(&mut self, key: &str, value: &str) -> &mut Self {
        self.pairs.push((key.to_string(), value.to_string()));
        self
    }

    /// Replaces every value of `key` by a single one, keeping the position
    /// of the first occurrence (or appending if absent).
    pub fn set(&mut self, key: &str, value: &str) -> &mut Self {
        match self.pairs.iter().position(|(k, _)| k == key) {
            Some(first) => {
                self.pairs[first].1 = value.to_string();
                let mut i = 0;
                self.pairs.retain(|(k, _)| {
                    let keep = k != key || i == first;
                    i += 1;
                    keep
                });
            }
            None => {
                self.pairs.push((key.to_string(), value.to_string()));
            }
        }
        self
    }

    /// Removes every value of `key`; returns how many were removed.
    pub fn remove(&mut self, key: &str) -> usize {
        let before = self.pairs.len();
        self.pairs.retain(|(k, _)| k != key);
        before - self.pairs.len()
    }

    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// Serializes without a leading `?`.
    pub fn to_query_string(&self) -> String {
        let mut out = String::new();
        for (i, (k, v)) in self.pairs.iter().enumerate() {
            if i > 0 {
                out.push('&');
            }
            encode_into(&mut out, k);
            out.push('=');
            encode_into(&mut out, v);
        }
        out
    }
}

fn hex_val(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Decodes `+` as space and `%XX` escapes; invalid UTF-8 is replaced.
pub fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b'%' if i + 2 < bytes.len() => {
                match (hex_val(bytes[i + 1]), hex_val(bytes[i + 2])) {
                    (Some(h), Some(l)) => {
                        out.push(h << 4 | l);
                        i += 3;
                    }
                    _ => {
                        out.push(b'%');
                        i += 1;
                    }
                }
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Percent-encodes everything except ASCII alphanumerics and `-._*`;
/// spaces become `+`.
fn encode_into(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for &b in s.as_bytes() {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'*' => out.push(b as char),
            b' ' => out.push('+'),
            _ => {
                out.push('%');
                out.push(HEX[(b >> 4) as usize] as char);
                out.push(HEX[(b & 0xF) as usize] as char);
            }
        }
    }
}

#[cfg(test)]
mod tests;
