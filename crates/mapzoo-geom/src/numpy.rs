//! Small numeric kernels with NumPy's exact semantics (`linspace`, `interp`),
//! so that the resampling here and the racing-line stages (reference line,
//! velocity profile) reproduce TUM's and the Race Stack's Python to the last
//! digits (DESIGN §3 "Notes for parity").

/// `numpy.linspace(start, stop, num)`: `start + i·step`, the last value exactly `stop`.
pub fn linspace(start: f64, stop: f64, num: usize) -> Vec<f64> {
    match num {
        0 => Vec::new(),
        1 => vec![start],
        _ => {
            let step = (stop - start) / (num - 1) as f64;
            let mut v: Vec<f64> = (0..num).map(|i| i as f64 * step + start).collect();
            v[num - 1] = stop;
            v
        }
    }
}

/// Index search of `numpy.interp` (NumPy's `binary_search_with_guess`): −1 below, `len` above,
/// else j with xp[j] ≤ key < xp[j+1] found the way NumPy finds it (also for unsorted xp).
fn binary_search_with_guess(key: f64, xp: &[f64], guess: isize) -> isize {
    const LIKELY_IN_CACHE_SIZE: isize = 8;
    let len = xp.len() as isize;
    let at = |i: isize| xp[i as usize];
    if key > at(len - 1) {
        return len;
    } else if key < at(0) {
        return -1;
    }
    if len <= 4 {
        let mut i = 1;
        while i < len && key >= at(i) {
            i += 1;
        }
        return i - 1;
    }
    let mut guess = guess.min(len - 3).max(1);
    let mut imin = 0;
    let mut imax = len;
    if key < at(guess) {
        if key < at(guess - 1) {
            imax = guess - 1;
            if guess > LIKELY_IN_CACHE_SIZE && key >= at(guess - LIKELY_IN_CACHE_SIZE) {
                imin = guess - LIKELY_IN_CACHE_SIZE;
            }
        } else {
            return guess - 1;
        }
    } else if key < at(guess + 1) {
        return guess;
    } else if key < at(guess + 2) {
        return guess + 1;
    } else {
        imin = guess + 2;
        if guess < len - LIKELY_IN_CACHE_SIZE - 1 && key < at(guess + LIKELY_IN_CACHE_SIZE) {
            imax = guess + LIKELY_IN_CACHE_SIZE;
        }
    }
    while imin < imax {
        let imid = imin + ((imax - imin) >> 1);
        if key >= at(imid) {
            imin = imid + 1;
        } else {
            imax = imid;
        }
    }
    guess = imin - 1;
    guess
}

/// `numpy.interp(x, xp, fp)` for many x: linear, clamped to `fp[0]` / `fp[last]` outside.
pub fn interp(x: &[f64], xp: &[f64], fp: &[f64]) -> Vec<f64> {
    if xp.len() == 1 {
        return x.iter().map(|_| fp[0]).collect();
    }
    // NumPy carries the search's guess from one x to the next
    let mut j: isize = 0;
    x.iter()
        .map(|&xv| interp_from(xv, xp, fp, &mut j))
        .collect()
}

/// `numpy.interp` for one x (no allocation: the velocity profile calls it per sample).
pub fn interp1(x: f64, xp: &[f64], fp: &[f64]) -> f64 {
    interp1_guessed(x, xp, fp, &mut 0)
}

/// [`interp1`] with the search starting from `guess` and leaving there the index it found:
/// for a strictly ascending `xp` the same value bit for bit whatever the guess (the index
/// the search finds is then the only one that brackets x), in a step or two where x changes
/// little from call to call (the velocity profile's table lookups, sample after sample).
pub fn interp1_guessed(x: f64, xp: &[f64], fp: &[f64], guess: &mut isize) -> f64 {
    if xp.len() == 1 {
        return fp[0];
    }
    interp_from(x, xp, fp, guess)
}

/// [`interp`]'s value at `xv` for `xp` of two points or more, its search starting from the
/// guess `j` and leaving there the index it found (a NaN leaves it as it was).
fn interp_from(xv: f64, xp: &[f64], fp: &[f64], j: &mut isize) -> f64 {
    if xv.is_nan() {
        return xv;
    }
    let len = xp.len();
    *j = binary_search_with_guess(xv, xp, *j);
    if *j == -1 {
        fp[0]
    } else if *j == len as isize {
        fp[len - 1]
    } else if *j == len as isize - 1 {
        fp[*j as usize]
    } else {
        let ju = *j as usize;
        if xp[ju] == xv {
            fp[ju]
        } else {
            let slope = (fp[ju + 1] - fp[ju]) / (xp[ju + 1] - xp[ju]);
            let mut r = slope * (xv - xp[ju]) + fp[ju];
            if r.is_nan() {
                r = slope * (xv - xp[ju + 1]) + fp[ju + 1];
                if r.is_nan() && fp[ju] == fp[ju + 1] {
                    r = fp[ju];
                }
            }
            r
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linspace_ends_exactly() {
        let v = linspace(0.0, 0.3, 4);
        assert_eq!(v.len(), 4);
        assert_eq!(v[3], 0.3);
        assert!((v[1] - 0.1).abs() < 1e-15);
    }

    #[test]
    fn interp_clamps_and_interpolates() {
        let xp = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0];
        let fp = [0.0, 10.0, 20.0, 30.0, 40.0, 50.0];
        let y = interp(&[-1.0, 0.5, 2.25, 5.0, 7.0], &xp, &fp);
        assert_eq!(y, vec![0.0, 5.0, 22.5, 50.0, 50.0]);
    }

    /// Numbers in [0, 1) from a linear congruential generator seeded with `seed`.
    fn uniform(mut seed: u64) -> impl FnMut() -> f64 {
        move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// On a strictly ascending xp the guessed lookup is the plain one bit for bit, whatever
    /// the guess it starts from (any index, out of range too) and wherever x lies.
    #[test]
    fn a_guess_never_changes_an_ascending_lookup() {
        let mut next = uniform(11);
        for case in 0..5000 {
            let n = 1 + case % 70;
            let mut xp = vec![next() * 3.0 - 1.0];
            for _ in 1..n {
                let last = xp[xp.len() - 1];
                xp.push(last + 0.01 + next());
            }
            let fp: Vec<f64> = (0..n).map(|_| next() * 4.0 - 2.0).collect();
            let x = match case % 5 {
                0 => xp[case % n],
                1 => f64::NAN,
                _ => next() * (n as f64 + 4.0) - 3.0,
            };
            let mut guess = (next() * (n as f64 + 6.0)) as isize - 3;
            let guessed = interp1_guessed(x, &xp, &fp, &mut guess);
            assert_eq!(
                guessed.to_bits(),
                interp1(x, &xp, &fp).to_bits(),
                "x {x} xp {xp:?}"
            );
        }
    }

    /// The scalar form is the vector form's first value, bit for bit (NaN, outside, on a knot,
    /// unsorted or repeated xp).
    #[test]
    fn interp1_is_interp_of_one_value() {
        let mut next = uniform(7);
        for case in 0..2000 {
            let n = 1 + case % 9;
            let mut xp: Vec<f64> = (0..n).map(|_| (next() * 10.0).floor() / 2.0).collect();
            if case % 3 != 0 {
                xp.sort_by(f64::total_cmp);
            }
            let fp: Vec<f64> = (0..n).map(|_| next() * 4.0 - 2.0).collect();
            let x = match case % 7 {
                0 => f64::NAN,
                1 => xp[case % n],
                _ => next() * 7.0 - 1.0,
            };
            let (one, many) = (interp1(x, &xp, &fp), interp(&[x], &xp, &fp)[0]);
            assert_eq!(one.to_bits(), many.to_bits(), "x {x} xp {xp:?} fp {fp:?}");
        }
    }
}
