//! PackBits run-length encoding, as used by TIFF and Apple MacPaint.
//!
//! The encoded stream is a sequence of packets. A header byte `n`
//! (read as `i8`) means:
//! * `0..=127`: copy the next `n + 1` bytes literally;
//! * `-127..=-1`: repeat the next byte `1 - n` times;
//! * `-128`: no operation.

/// Longest run or literal a single packet can hold.
const MAX_PACKET: usize = 128;

/// Error returned by [`decode`] when the input ends inside a packet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TruncatedInput {
    /// Offset of the header of the incomplete packet.
    pub offset: usize,
}

/// Encodes `data`. Runs of 3 or more equal bytes become repeat packets;
/// everything else is gathered into literal packets.
pub fn encode(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + data.len() / MAX_PACKET + 1);
    let mut literal_start = 0;
    let mut i = 0;
    while i < data.len() {
        let run = run_length(&data[i..]);
        if run >= 3 {
            flush_literal(&mut out, &data[literal_start..i]);
            out.push((1i16 - run as i16) as i8 as u8);
            out.push(data[i]);
            i += run;
            literal_start = i;
        } else {
            i += run;
        }
    }
    flush_literal(&mut out, &data[literal_start..]);
    out
}

/// Length of the run of equal bytes at the start of `data`, capped at
/// [`MAX_PACKET`].
fn run_length(data: &[u8]) -> usize {
    let first = data[0];
    data.iter()
        .take(MAX_PACKET)
        .take_while(|&&b| b == first)
        .count()
}

fn flush_literal(out: &mut Vec<u8>, mut lit: &[u8]) {
    while !lit.is_empty() {
        let n = lit.len().min(MAX_PACKET);
        out.push((n - 1) as u8);
        out.extend_from_slice(&lit[..n]);
        lit = &lit[n..];
    }
}

/// Decodes a PackBits stream.
pub fn decode(data: &[u8]) -> Result<Vec<u8>, TruncatedInput> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < data.len() {
        let header = data[i] as i8;
        let offset = i;
        i += 1;
        match header {
            -128 => {}
            0..=127 => {
                let n = header as usize + 1;
                let lit = data.get(i..i + n).ok_or(TruncatedInput { offset })?;
                out.extend_from_slice(lit);
                i += n;
            }
            _ => {
                let n = (1 - header as isize) as usize;
                let &b = data.get(i).ok_or(TruncatedInput { offset })?;
                out.extend(std::iter::repeat(b).take(n));
                i += 1;
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apple_example() {
        // The example from Apple's Technical Note TN1023.
        let packed = [
            0xFE, 0xAA, 0x02, 0x80, 0x00, 0x2A, 0xFD, 0xAA, 0x03, 0x80, 0x00, 0x2A, 0x22, 0xF7,
            0xAA,
        ];
        let unpacked = [
            0xAA, 0xAA, 0xAA, 0x80, 0x00, 0x2A, 0xAA, 0xAA, 0xAA, 0xAA, 0x80, 0x00, 0x2A, 0x22,
            0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA,
        ];
        assert_eq!(decode(&packed).unwrap(), unpacked);
        assert_eq!(decode(&encode(&unpacked)).unwrap(), unpacked);
    }

    #[test]
    fn empty_input() {
        assert_eq!(encode(&[]), Vec::<u8>::new());
        assert_eq!(decode(&[]).unwrap(), Vec::<u8>::new());
    }

    #[test]
    fn short_runs_stay_literal() {
        assert_eq!(encode(b"aabcc"), [4, b'a', b'a', b'b', b'c', b'c']);
    }

    #[test]
    fn repeat_packet() {
        assert_eq!(encode(b"xxxxx"), [0xFC, b'x']);
        assert_eq!(encode(b"abbbc"), [0, b'a', 0xFE, b'b', 0, b'c']);
    }

    #[test]
    fn long_run_is_split_at_128() {
        let data = vec![7u8; 300];
        let enc = encode(&data);
        assert_eq!(enc, [0x81, 7, 0x81, 7, 0xD5, 7]);
        assert_eq!(decode(&enc).unwrap(), data);
    }

    #[test]
    fn long_literal_is_split_at_128() {
        let data: Vec<u8> = (0..200u32).map(|i| (i % 2) as u8 + (i % 7) as u8 * 3).collect();
        let enc = encode(&data);
        assert_eq!(enc[0], 127);
        assert_eq!(enc[129], 71);
        assert_eq!(enc.len(), 202);
        assert_eq!(decode(&enc).unwrap(), data);
    }

    #[test]
    fn noop_header_is_skipped() {
        assert_eq!(decode(&[0x80, 0x01, b'h', b'i']).unwrap(), b"hi");
    }

    #[test]
    fn truncated_input() {
        assert_eq!(decode(&[0x02, b'a']), Err(TruncatedInput { offset: 0 }));
        assert_eq!(decode(&[0x00, b'a', 0xFE]), Err(TruncatedInput { offset: 2 }));
    }

    #[test]
    fn round_trip_mixed() {
        let mut data = Vec::new();
        for i in 0..2000u32 {
            let b = ((i * 7919) % 251) as u8;
            let reps = if i % 5 == 0 { 1 + i % 140 } else { 1 };
            data.extend(std::iter::repeat(b).take(reps as usize));
        }
        assert_eq!(decode(&encode(&data)).unwrap(), data);
    }
}
