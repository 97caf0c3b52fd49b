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
