//! What shapes a synthetic map: the centerline, the width, the features and
//! the image, and their validation before any work.

use std::f64::consts::PI;

use crate::constants::{MAX_LAP_M, MAX_PIXELS, MAX_SIDE};
use crate::error::{finite, opt_err, positive, size, SynthError};

/// Where the centerline comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum CenterlineSpec {
    /// A smooth random closed loop from the seed: a radial Fourier series
    /// (star-shaped, so it never self-intersects), rotated and shifted so that
    /// waypoint 0 sits at world (0, 0) heading +x, driven counter-clockwise.
    Random {
        /// Lap length, metres; `None` draws it uniformly from 40–150 m.
        lap_length: Option<f64>,
    },
    /// A closed polyline of world points, metres (the last point is not a
    /// copy of the first; a repeated closing point is dropped).
    Points {
        /// Centerline points (x, y), metres.
        points: Vec<[f64; 2]>,
        /// Full track width at each point, metres; `None` uses [`SynthOptions::width`].
        widths: Option<Vec<f64>>,
    },
}

/// Track width along the lap.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum WidthSpec {
    /// The same full width everywhere, metres.
    Constant(f64),
    /// A smooth random width (three harmonics along s) within [min, max], metres.
    Smooth {
        /// Narrowest full width, metres.
        min: f64,
        /// Widest full width, metres.
        max: f64,
    },
}

/// Which side of the track a feature is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Left of the driving direction.
    Left,
    /// Right of the driving direction.
    Right,
    /// Away from the infield (right on a counter-clockwise loop).
    Outer,
    /// Towards the infield (left on a counter-clockwise loop).
    Inner,
}

/// Shape of an obstacle inside the track.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ObstacleShape {
    /// A disc of this radius, metres.
    Disc {
        /// Radius, metres.
        radius: f64,
    },
    /// A box aligned with the track heading.
    Box {
        /// Extent along the track, metres.
        length: f64,
        /// Extent across the track, metres.
        width: f64,
    },
}

impl ObstacleShape {
    /// Half the extent across the track, metres.
    pub fn half_across(&self) -> f64 {
        match *self {
            ObstacleShape::Disc { radius } => radius,
            ObstacleShape::Box { width, .. } => width / 2.0,
        }
    }

    /// Half the extent along the track, metres.
    pub fn half_along(&self) -> f64 {
        match *self {
            ObstacleShape::Disc { radius } => radius,
            ObstacleShape::Box { length, .. } => length / 2.0,
        }
    }
}

/// An obstacle asked for at a place on the track.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ObstacleSpec {
    /// Arc length of its centre along the centerline, metres (taken modulo the lap).
    pub s: f64,
    /// Lateral offset of its centre from the centerline, metres, positive to the left.
    pub offset: f64,
    /// Its shape.
    pub shape: ObstacleShape,
}

/// A spur: a narrow dead-end corridor from the track into a wall.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpurSpec {
    /// Arc length where it branches off, metres.
    pub s: f64,
    /// Which wall it goes into.
    pub side: Side,
    /// How far it reaches beyond the track edge, metres.
    pub length: f64,
    /// Corridor width, metres.
    pub width: f64,
    /// Angle from the wall normal, radians, positive towards the driving direction.
    pub angle: f64,
}

/// A pocket: a round bulge of the track into a wall.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PocketSpec {
    /// Arc length of its middle, metres.
    pub s: f64,
    /// Which wall it bulges into.
    pub side: Side,
    /// How far it reaches beyond the track edge, metres.
    pub depth: f64,
    /// Radius of the bulge, metres.
    pub radius: f64,
}

/// A gap in the outer wall: a free corridor from the track to the image border.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GapSpec {
    /// Arc length where it leaves the track, metres; `None` draws it from the seed.
    pub s: Option<f64>,
    /// Corridor width, metres.
    pub width: f64,
}

/// Everything that shapes a synthetic map. `Default` is a clean random track
/// at 0.05 m/px with a 2 m margin.
#[derive(Debug, Clone, PartialEq)]
pub struct SynthOptions {
    /// Seed of every random choice.
    pub seed: u64,
    /// The centerline: random from the seed or given.
    pub centerline: CenterlineSpec,
    /// Track width along the lap (used where the centerline carries no widths).
    pub width: WidthSpec,
    /// Smallest wall between non-neighbouring parts of a random track, metres.
    pub min_wall: f64,
    /// Metres per pixel, > 0 (realistic: 0.03–0.1).
    pub resolution: f64,
    /// Occupied space kept around the track on each side, metres.
    pub margin: f64,
    /// Exact image size `[width, height]`, pixels, the track centred; `None` fits the image to the track.
    pub image_size: Option<[usize; 2]>,
    /// Anti-aliased wall edges: width of the gray ramp, pixels (1.0 = exact pixel coverage); `None` = binary.
    pub anti_alias: Option<f64>,
    /// Walls this thick, metres; everything farther from the track is unknown (205). `None`: all occupied.
    pub wall_thickness: Option<f64>,
    /// Number of unknown (205) blobs away from the track.
    pub unknown_blobs: usize,
    /// Obstacles at given places.
    pub obstacles: Vec<ObstacleSpec>,
    /// Number of obstacles at random places (added after `obstacles`).
    pub random_obstacles: usize,
    /// Spurs at given places.
    pub spurs: Vec<SpurSpec>,
    /// Number of spurs at random places into the outer wall.
    pub random_spurs: usize,
    /// Pockets at given places.
    pub pockets: Vec<PocketSpec>,
    /// Number of pockets at random places.
    pub random_pockets: usize,
    /// A gap in the outer wall reaching the image border.
    pub wall_gap: Option<GapSpec>,
    /// Number of lidar rays: 1 px lines of free pixels from the outer edge outwards.
    pub lidar_rays: usize,
    /// Number of free specks (1–2 px) away from the track.
    pub specks: usize,
    /// Probability that a pixel away from the track gets a random gray value, 0..1.
    pub noise: f64,
}

impl Default for SynthOptions {
    fn default() -> Self {
        SynthOptions {
            seed: 0,
            centerline: CenterlineSpec::Random { lap_length: None },
            width: WidthSpec::Smooth { min: 1.6, max: 3.0 },
            min_wall: 0.6,
            resolution: 0.05,
            margin: 2.0,
            image_size: None,
            anti_alias: None,
            wall_thickness: None,
            unknown_blobs: 0,
            obstacles: Vec::new(),
            random_obstacles: 0,
            spurs: Vec::new(),
            random_spurs: 0,
            pockets: Vec::new(),
            random_pockets: 0,
            wall_gap: None,
            lidar_rays: 0,
            specks: 0,
            noise: 0.0,
        }
    }
}

impl SynthOptions {
    /// Checks every option before any work; the first bad one is the error.
    pub fn validate(&self) -> Result<(), SynthError> {
        validate_scalars(self)?;
        validate_counts(self)?;
        validate_features(self)
    }
}

/// Resolution, margin, wall, width, lap, image size and the image effects.
fn validate_scalars(opts: &SynthOptions) -> Result<(), SynthError> {
    positive("resolution", opts.resolution)?;
    if !(opts.margin.is_finite() && opts.margin >= 0.0) {
        return Err(opt_err(
            "margin",
            format!("must be finite and >= 0 (found {})", opts.margin),
        ));
    }
    if !(opts.min_wall.is_finite() && opts.min_wall >= 0.0) {
        return Err(opt_err(
            "min_wall",
            format!("must be finite and >= 0 (found {})", opts.min_wall),
        ));
    }
    match opts.width {
        WidthSpec::Constant(w) => size("width", w)?,
        WidthSpec::Smooth { min, max } => {
            size("width.min", min)?;
            size("width.max", max)?;
            if min > max {
                return Err(opt_err(
                    "width",
                    format!("min must be <= max (found {min} > {max})"),
                ));
            }
        }
    }
    if let CenterlineSpec::Random {
        lap_length: Some(l),
    } = opts.centerline
    {
        positive("lap_length", l)?;
        if l > MAX_LAP_M {
            return Err(opt_err(
                "lap_length",
                format!(
                    "must be at most {MAX_LAP_M} m (found {} m)",
                    mapzoo_format::format_number(l)
                ),
            ));
        }
    }
    if let Some([w, h]) = opts.image_size {
        if w < 2 || h < 2 {
            return Err(opt_err(
                "image_size",
                format!("must be at least 2×2 px (found {w}×{h})"),
            ));
        }
        if w > MAX_SIDE || h > MAX_SIDE || w * h > MAX_PIXELS {
            return Err(SynthError::TooLarge {
                width: w,
                height: h,
            });
        }
    }
    if let Some(r) = opts.anti_alias {
        if !(r.is_finite() && r > 0.0 && r <= 64.0) {
            return Err(opt_err(
                "anti_alias",
                format!("ramp width must be in (0, 64] px (found {r})"),
            ));
        }
    }
    if let Some(t) = opts.wall_thickness {
        if !(t.is_finite() && t >= 0.0 && t / opts.resolution <= 1000.0) {
            return Err(opt_err(
                "wall_thickness",
                format!("must be >= 0 and at most 1000 px (found {t} m)"),
            ));
        }
    }
    if !(0.0..=1.0).contains(&opts.noise) {
        return Err(opt_err(
            "noise",
            format!("must be a probability in [0, 1] (found {})", opts.noise),
        ));
    }
    Ok(())
}

/// The numbers of random features, each at most 10,000.
fn validate_counts(opts: &SynthOptions) -> Result<(), SynthError> {
    const MAX_COUNT: usize = 10_000;
    for (field, n) in [
        ("unknown_blobs", opts.unknown_blobs),
        ("random_obstacles", opts.random_obstacles),
        ("random_spurs", opts.random_spurs),
        ("random_pockets", opts.random_pockets),
        ("lidar_rays", opts.lidar_rays),
        ("specks", opts.specks),
        ("obstacles", opts.obstacles.len()),
        ("spurs", opts.spurs.len()),
        ("pockets", opts.pockets.len()),
    ] {
        if n > MAX_COUNT {
            return Err(opt_err(field, format!("at most {MAX_COUNT} (found {n})")));
        }
    }
    Ok(())
}

/// The features given at places: finite places, sizes in range.
fn validate_features(opts: &SynthOptions) -> Result<(), SynthError> {
    for ob in &opts.obstacles {
        finite("obstacles.s", ob.s)?;
        finite("obstacles.offset", ob.offset)?;
        match ob.shape {
            ObstacleShape::Disc { radius } => size("obstacles.radius", radius)?,
            ObstacleShape::Box { length, width } => {
                size("obstacles.length", length)?;
                size("obstacles.width", width)?;
            }
        }
    }
    for sp in &opts.spurs {
        finite("spurs.s", sp.s)?;
        finite("spurs.angle", sp.angle)?;
        size("spurs.length", sp.length)?;
        size("spurs.width", sp.width)?;
        if sp.angle.abs() >= PI / 2.0 {
            return Err(opt_err(
                "spurs.angle",
                format!(
                    "must be within ±90° of the wall normal (found {} rad)",
                    sp.angle
                ),
            ));
        }
    }
    for pk in &opts.pockets {
        finite("pockets.s", pk.s)?;
        size("pockets.depth", pk.depth)?;
        size("pockets.radius", pk.radius)?;
    }
    if let Some(g) = &opts.wall_gap {
        if let Some(s) = g.s {
            finite("wall_gap.s", s)?;
        }
        size("wall_gap.width", g.width)?;
    }
    Ok(())
}
