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
mod tests;
