//! Clutter away from the track: unknown blobs, lidar rays, free specks and
//! gray noise, each from its own random stream and kept off the track.

use crate::constants::{FREE, KEEP_OFF_PX, OCCUPIED, UNKNOWN};
use crate::frame::Frame;
use crate::options::{Side, SynthOptions};
use crate::raster::Field;
use crate::rng::{tag, SplitMix64};
use crate::track::{point_at, resolve_side, side_normal, Track};

/// Unknown (205) discs on occupied pixels away from the track.
pub(crate) fn add_unknown_blobs(
    opts: &SynthOptions,
    gray: &mut [u8],
    field: &Field,
    frame: &Frame,
) {
    let mut rng = SplitMix64::stream(opts.seed, tag::BLOBS);
    for _ in 0..opts.unknown_blobs {
        let cc = rng.uniform(0.0, frame.width as f64);
        let cr = rng.uniform(0.0, frame.height as f64);
        let rad = rng.uniform(0.3, 1.5) / frame.res;
        let c0 = (cc - rad).floor().max(0.0) as usize;
        let c1 = ((cc + rad).ceil().max(0.0) as usize).min(frame.width - 1);
        let r0 = (cr - rad).floor().max(0.0) as usize;
        let r1 = ((cr + rad).ceil().max(0.0) as usize).min(frame.height - 1);
        for r in r0..=r1 {
            for c in c0..=c1 {
                let (dx, dy) = (c as f64 - cc, r as f64 - cr);
                if dx * dx + dy * dy > rad * rad {
                    continue;
                }
                let i = r * frame.width + c;
                if gray[i] == OCCUPIED && field.dist[i] as f64 > KEEP_OFF_PX {
                    gray[i] = UNKNOWN;
                }
            }
        }
    }
}

/// Free 1 px rays from the outer edge outwards, stopping short of other track parts.
pub(crate) fn add_lidar_rays(
    opts: &SynthOptions,
    gray: &mut [u8],
    field: &Field,
    frame: &Frame,
    track: &Track,
) {
    let mut rng = SplitMix64::stream(opts.seed, tag::RAYS);
    let side = resolve_side(Side::Outer, track.ccw);
    for _ in 0..opts.lidar_rays {
        let s = rng.uniform(0.0, track.lap);
        let tilt = rng.uniform(-0.7, 0.7);
        let len_px = rng.uniform(0.5, 4.0) / frame.res;
        let (p, psi, _) = point_at(track, s);
        let n = side_normal(side, psi);
        let (ts, tc) = tilt.sin_cos();
        let dir = [n[0] * tc - n[1] * ts, n[0] * ts + n[1] * tc];
        let start = frame.to_px(p);
        let step = [dir[0] * 0.5, -dir[1] * 0.5];
        let mut outside = false;
        let mut travelled = 0.0;
        let mut q = start;
        // March outward from the centerline; stop short of any other part of the track.
        for _ in 0..(8 * (frame.width + frame.height)) {
            q = [q[0] + step[0], q[1] + step[1]];
            let (c, r) = (q[0].round() as i64, q[1].round() as i64);
            if c < 0 || r < 0 || c as usize >= frame.width || r as usize >= frame.height {
                break;
            }
            let f = field.at(c, r);
            if !outside {
                if f > KEEP_OFF_PX {
                    outside = true;
                }
            } else if f < KEEP_OFF_PX {
                break;
            }
            if f > 0.0 {
                travelled += 0.5;
                if travelled > len_px {
                    break;
                }
                gray[r as usize * frame.width + c as usize] = FREE;
            }
        }
    }
}

/// Free 1–2 px specks away from the track.
pub(crate) fn add_specks(opts: &SynthOptions, gray: &mut [u8], field: &Field, frame: &Frame) {
    let mut rng = SplitMix64::stream(opts.seed, tag::SPECKS);
    for _ in 0..opts.specks {
        for _try in 0..50 {
            let c = rng.below(frame.width as u64) as i64;
            let r = rng.below(frame.height as u64) as i64;
            let size = 1 + rng.below(2) as i64;
            let cells: Vec<(i64, i64)> = (0..size)
                .flat_map(|dr| (0..size).map(move |dc| (c + dc, r + dr)))
                .collect();
            let clear = |&(cc, rr): &(i64, i64)| {
                (cc as usize) < frame.width
                    && (rr as usize) < frame.height
                    && field.at(cc, rr) > KEEP_OFF_PX + 1.0
            };
            if cells.iter().all(clear) {
                for (cc, rr) in cells {
                    gray[rr as usize * frame.width + cc as usize] = FREE;
                }
                break;
            }
        }
    }
}

/// Random gray values on pixels away from the track, each with probability `noise`.
pub(crate) fn add_noise(opts: &SynthOptions, gray: &mut [u8], field: &Field) {
    if opts.noise <= 0.0 {
        return;
    }
    let mut rng = SplitMix64::stream(opts.seed, tag::NOISE);
    // Geometric gaps between hit pixels: one draw per hit, not per pixel.
    let log_miss = (1.0 - opts.noise).ln();
    let mut i = 0usize;
    loop {
        if log_miss.is_finite() {
            let u = 1.0 - rng.next_f64();
            let gap = (u.ln() / log_miss).floor();
            if gap >= (gray.len() - i) as f64 {
                break;
            }
            i += gap as usize;
        }
        if i >= gray.len() {
            break;
        }
        let value = rng.below(255) as u8;
        if field.dist[i] as f64 > KEEP_OFF_PX {
            gray[i] = value;
        }
        i += 1;
    }
}
