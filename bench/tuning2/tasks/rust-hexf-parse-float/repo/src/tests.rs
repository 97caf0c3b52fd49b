use super::*;

#[test]
fn test_parse() {
    assert_eq!(parse(b"", false), Err(EMPTY));
    assert_eq!(parse(b" ", false), Err(INVALID));
    assert_eq!(parse(b"3.14", false), Err(INVALID));
    assert_eq!(parse(b"0x3.14", false), Err(INVALID));
    assert_eq!(parse(b"0x3.14fp+3", false), Ok((false, 0x314f, 3 - 12)));
    assert_eq!(parse(b" 0x3.14p+3", false), Err(INVALID));
    assert_eq!(parse(b"0x3.14p+3 ", false), Err(INVALID));
    assert_eq!(parse(b"+0x3.14fp+3", false), Ok((false, 0x314f, 3 - 12)));
    assert_eq!(parse(b"-0x3.14fp+3", false), Ok((true, 0x314f, 3 - 12)));
    assert_eq!(parse(b"0xAbC.p1", false), Ok((false, 0xabc, 1)));
    assert_eq!(parse(b"0x0.7p1", false), Ok((false, 0x7, 1 - 4)));
    assert_eq!(parse(b"0x.dEfP-1", false), Ok((false, 0xdef, -1 - 12)));
    assert_eq!(parse(b"0x.p1", false), Err(INVALID));
    assert_eq!(parse(b"0x.P1", false), Err(INVALID));
    assert_eq!(parse(b"0xp1", false), Err(INVALID));
    assert_eq!(parse(b"0xP1", false), Err(INVALID));
    assert_eq!(parse(b"0x0p", false), Err(INVALID));
    assert_eq!(parse(b"0xp", false), Err(INVALID));
    assert_eq!(parse(b"0x.p", false), Err(INVALID));
    assert_eq!(parse(b"0x0p1", false), Ok((false, 0, 0)));
    assert_eq!(parse(b"0x0P1", false), Ok((false, 0, 0)));
    assert_eq!(parse(b"0x0.p1", false), Ok((false, 0, 0)));
    assert_eq!(parse(b"0x0.P1", false), Ok((false, 0, 0)));
    assert_eq!(parse(b"0x0.0p1", false), Ok((false, 0, 0)));
    assert_eq!(parse(b"0x0.0P1", false), Ok((false, 0, 0)));
    assert_eq!(parse(b"0x.0p1", false), Ok((false, 0, 0)));
    assert_eq!(parse(b"0x.0P1", false), Ok((false, 0, 0)));
    assert_eq!(parse(b"0x0p0", false), Ok((false, 0, 0)));
    assert_eq!(parse(b"0x0.p999999999", false), Ok((false, 0, 0)));
    assert_eq!(
        parse(b"0x0.p99999999999999999999999999999", false),
        Ok((false, 0, 0))
    );
    assert_eq!(
        parse(b"0x0.p-99999999999999999999999999999", false),
        Ok((false, 0, 0))
    );
    assert_eq!(
        parse(b"0x1.p99999999999999999999999999999", false),
        Err(INEXACT)
    );
    assert_eq!(
        parse(b"0x1.p-99999999999999999999999999999", false),
        Err(INEXACT)
    );
    assert_eq!(
        parse(b"0x4.00000000000000000000p55", false),
        Ok((false, 4, 55))
    );
    assert_eq!(
        parse(b"0x4.00001000000000000000p55", false),
        Ok((false, 0x400001, 55 - 20))
    );
    assert_eq!(parse(b"0x4.00000000000000000001p55", false), Err(INEXACT));

    // underscore insertion
    assert_eq!(
        parse(b"-0x3____.1_4___p+___5___", true),
        Ok((true, 0x314, 5 - 8))
    );
    assert_eq!(parse(b"-_0x3.14p+5", true), Err(INVALID));
    assert_eq!(parse(b"_0x3.14p+5", true), Err(INVALID));
    assert_eq!(parse(b"0x_3.14p+5", true), Err(INVALID));
    assert_eq!(parse(b"0x3._14p+5", true), Err(INVALID));
    assert_eq!(parse(b"0x3.14p_+5", true), Err(INVALID));
    assert_eq!(parse(b"-0x____.1_4___p+___5___", true), Err(INVALID));
    assert_eq!(parse(b"-0x3____.____p+___5___", true), Err(INVALID));
    assert_eq!(parse(b"-0x3____.1_4___p+______", true), Err(INVALID));
    assert_eq!(parse(b"0x_p0", false), Err(INVALID));
    assert_eq!(parse(b"0x_0p0", true), Err(INVALID));
    assert_eq!(parse(b"0x_p0", true), Err(INVALID));
    assert_eq!(parse(b"0x._p0", true), Err(INVALID));
    assert_eq!(parse(b"0x._0p0", true), Err(INVALID));
    assert_eq!(parse(b"0x0._0p0", true), Err(INVALID));
    assert_eq!(parse(b"0x0_p0", true), Ok((false, 0, 0)));
    assert_eq!(parse(b"0x.0_p0", true), Ok((false, 0, 0)));
    assert_eq!(parse(b"0x0.0_p0", true), Ok((false, 0, 0)));

    // issues
    // #11 (https://github.com/lifthrasiir/hexf/issues/11)
    assert_eq!(parse(b"0x1p-149", false), parse(b"0x1.0p-149", false));
}

#[test]
fn test_convert_hexf32() {
    assert_eq!(convert_hexf32(false, 0, 0), Ok(0.0));
    assert_eq!(convert_hexf32(false, 1, 0), Ok(1.0));
    assert_eq!(convert_hexf32(false, 10, 0), Ok(10.0));
    assert_eq!(convert_hexf32(false, 10, 1), Ok(20.0));
    assert_eq!(convert_hexf32(false, 10, -1), Ok(5.0));
    assert_eq!(convert_hexf32(true, 0, 0), Ok(-0.0));
    assert_eq!(convert_hexf32(true, 1, 0), Ok(-1.0));

    // negative zeroes
    assert_eq!(convert_hexf32(false, 0, 0).unwrap().signum(), 1.0);
    assert_eq!(convert_hexf32(true, 0, 0).unwrap().signum(), -1.0);

    // normal truncation
    assert_eq!(
        convert_hexf32(false, 0x0000_0000_00ff_ffff, 0),
        Ok(16777215.0)
    );
    assert_eq!(
        convert_hexf32(false, 0x0000_0000_01ff_ffff, 0),
        Err(INEXACT)
    );
    assert_eq!(
        convert_hexf32(false, 0xffff_ff00_0000_0000, -40),
        Ok(16777215.0)
    );
    assert_eq!(
        convert_hexf32(false, 0xffff_ff80_0000_0000, -40),
        Err(INEXACT)
    );

    // denormal truncation
    assert!(convert_hexf32(false, 0x0000_0000_007f_ffff, -149).is_ok());
    assert!(convert_hexf32(false, 0x0000_0000_00ff_ffff, -150).is_err());
    assert!(convert_hexf32(false, 0x0000_0000_00ff_fffe, -150).is_ok());
    assert!(convert_hexf32(false, 0xffff_ff00_0000_0000, -190).is_err());
    assert!(convert_hexf32(false, 0xffff_fe00_0000_0000, -190).is_ok());

    // minimum
    assert!(convert_hexf32(false, 0x0000_0000_0000_0001, -149).is_ok());
    assert!(convert_hexf32(false, 0x0000_0000_0000_0001, -150).is_err());
    assert!(convert_hexf32(false, 0x0000_0000_0000_0002, -150).is_ok());
    assert!(convert_hexf32(false, 0x0000_0000_0000_0002, -151).is_err());
    assert!(convert_hexf32(false, 0x0000_0000_0000_0003, -150).is_err());
    assert!(convert_hexf32(false, 0x0000_0000_0000_0003, -151).is_err());
    assert!(convert_hexf32(false, 0x8000_0000_0000_0000, -212).is_ok());
    assert!(convert_hexf32(false, 0x8000_0000_0000_0000, -213).is_err());

    // maximum
    assert_eq!(
        convert_hexf32(false, 0x0000_0000_00ff_ffff, 104),
        Ok(f32::MAX)
    );
    assert_eq!(
        convert_hexf32(false, 0x0000_0000_01ff_ffff, 104),
        Err(INEXACT)
    );
    assert_eq!(
        convert_hexf32(false, 0x0000_0000_01ff_fffe, 104),
        Err(INEXACT)
    );
    assert_eq!(
        convert_hexf32(false, 0x0000_0000_0000_0001, 128),
        Err(INEXACT)
    );
    assert_eq!(
        convert_hexf32(false, 0x8000_0000_0000_0000, 65),
        Err(INEXACT)
    );
    assert_eq!(
        convert_hexf32(false, 0xffff_ff00_0000_0000, 64),
        Ok(f32::MAX)
    );
    assert_eq!(
        convert_hexf32(false, 0xffff_ff80_0000_0000, 64),
        Err(INEXACT)
    );
}

#[test]
fn test_convert_hexf64() {
    assert_eq!(convert_hexf64(false, 0, 0), Ok(0.0));
    assert_eq!(convert_hexf64(false, 1, 0), Ok(1.0));
    assert_eq!(convert_hexf64(false, 10, 0), Ok(10.0));
    assert_eq!(convert_hexf64(false, 10, 1), Ok(20.0));
    assert_eq!(convert_hexf64(false, 10, -1), Ok(5.0));
    assert_eq!(convert_hexf64(true, 0, 0), Ok(-0.0));
    assert_eq!(convert_hexf64(true, 1, 0), Ok(-1.0));

    // negative zeroes
    assert_eq!(convert_hexf64(false, 0, 0).unwrap().signum(), 1.0);
    assert_eq!(convert_hexf64(true, 0, 0).unwrap().signum(), -1.0);

    // normal truncation
    assert_eq!(
        convert_hexf64(false, 0x001f_ffff_ffff_ffff, 0),
        Ok(9007199254740991.0)
    );
    assert_eq!(
        convert_hexf64(false, 0x003f_ffff_ffff_ffff, 0),
        Err(INEXACT)
    );
    assert_eq!(
        convert_hexf64(false, 0xffff_ffff_ffff_f800, -11),
        Ok(9007199254740991.0)
    );
    assert_eq!(
        convert_hexf64(false, 0xffff_ffff_ffff_fc00, -11),
        Err(INEXACT)
    );

    // denormal truncation
    assert!(convert_hexf64(false, 0x000f_ffff_ffff_ffff, -1074).is_ok());
    assert!(convert_hexf64(false, 0x001f_ffff_ffff_ffff, -1075).is_err());
    assert!(convert_hexf64(false, 0x001f_ffff_ffff_fffe, -1075).is_ok());
    assert!(convert_hexf64(false, 0xffff_ffff_ffff_f800, -1086).is_err());
    assert!(convert_hexf64(false, 0xffff_ffff_ffff_f000, -1086).is_ok());

    // minimum
    assert!(convert_hexf64(false, 0x0000_0000_0000_0001, -1074).is_ok());
    assert!(convert_hexf64(false, 0x0000_0000_0000_0001, -1075).is_err());
    assert!(convert_hexf64(false, 0x0000_0000_0000_0002, -1075).is_ok());
    assert!(convert_hexf64(false, 0x0000_0000_0000_0002, -1076).is_err());
    assert!(convert_hexf64(false, 0x0000_0000_0000_0003, -1075).is_err());
    assert!(convert_hexf64(false, 0x0000_0000_0000_0003, -1076).is_err());
    assert!(convert_hexf64(false, 0x8000_0000_0000_0000, -1137).is_ok());
    assert!(convert_hexf64(false, 0x8000_0000_0000_0000, -1138).is_err());

    // maximum
    assert_eq!(
        convert_hexf64(false, 0x001f_ffff_ffff_ffff, 971),
        Ok(f64::MAX)
    );
    assert_eq!(
        convert_hexf64(false, 0x003f_ffff_ffff_ffff, 971),
        Err(INEXACT)
    );
    assert_eq!(
        convert_hexf64(false, 0x003f_ffff_ffff_fffe, 971),
        Err(INEXACT)
    );
    assert_eq!(
        convert_hexf32(false, 0x0000_0000_0000_0001, 1024),
        Err(INEXACT)
    );
    assert_eq!(
        convert_hexf32(false, 0x8000_0000_0000_0000, 961),
        Err(INEXACT)
    );
    assert_eq!(
        convert_hexf64(false, 0xffff_ffff_ffff_f800, 960),
        Ok(f64::MAX)
    );
    assert_eq!(
        convert_hexf64(false, 0xffff_ffff_ffff_fc00, 960),
        Err(INEXACT)
    );
}

#[test]
fn test_parse_hexf() {
    // issues
    // #6 (https://github.com/lifthrasiir/hexf/issues/6)
    assert!(parse_hexf64("0x.000000000000000000102", false).is_err());
}
