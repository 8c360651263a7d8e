//! The TUM centerline and raceline files of the f1tenth set read.

use mapzoo_format::testdata::reference_data_or_skip;
use mapzoo_format::{read_tum_centerline, read_tum_raceline};

use crate::support::{files, name};

#[test]
fn tum_files_read() {
    let Some(data) = reference_data_or_skip("tum_files_read") else {
        return;
    };
    let cl = files(&data.join("f1tenth"), &|p| {
        name(p).ends_with("_centerline.csv")
    });
    let rl = files(&data.join("f1tenth"), &|p| {
        name(p).ends_with("_raceline.csv")
    });
    assert_eq!(cl.len(), 18);
    assert!(rl.len() >= 16);
    for p in cl {
        let c = read_tum_centerline(&p).unwrap();
        assert!(
            c.len() > 100
                && c.iter()
                    .all(|q| q.w_tr_right_m > 0.0 && q.w_tr_left_m > 0.0)
        );
    }
    for p in rl {
        let r = read_tum_raceline(&p).unwrap();
        assert!(r.len() > 100);
        assert!(r.windows(2).all(|w| w[1].s_m > w[0].s_m), "{}", p.display());
    }
}
