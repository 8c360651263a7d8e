//! Synthetic track maps: a closed centerline (given, or a smooth random loop
//! from a seed) rasterised with varying width into an 8-bit occupancy image
//! and its map-server metadata (DESIGN §2.1), with the ground truth beside it.
//!
//! Tests of the extraction stages (DESIGN §3, stages 1–6) compare against the
//! truth; benchmarks and `mapzoo generate` / `demo` use the same maps. The
//! free space is the union of capsules around the centerline segments (radius
//! = half the local width, interpolated along each segment), plus spurs,
//! pockets and a wall-gap corridor; obstacles are carved out of it. The band
//! is evaluated only beside each segment and in the wedge at each vertex
//! (checked against the plain capsule union by a property test), so a
//! 4000×4000 px map costs about a million distance evaluations and is
//! dominated by filling the image. Every random choice
//! comes from a SplitMix64 stream per feature, so the same seed and options
//! give byte-identical images on every build, and adding one feature does not
//! move the others.

use std::f64::consts::{PI, TAU};
use std::path::{Path, PathBuf};

use mapzoo_format::{map, FormatError, FreeRule, MapMeta, OccupancyMap};

/// Gray value of free pixels (map-server convention, p = 0.004).
pub const FREE: u8 = 254;
/// Gray value of occupied pixels (p = 1).
pub const OCCUPIED: u8 = 0;
/// Gray value of unknown pixels (p = 0.196: neither free nor occupied).
pub const UNKNOWN: u8 = 205;

/// Largest image side the generator accepts, pixels.
pub const MAX_SIDE: usize = 20_000;
/// Largest image the generator accepts, pixels in total.
pub const MAX_PIXELS: usize = 100_000_000;

/// Largest size of an obstacle, spur, pocket or gap, metres.
pub const MAX_FEATURE_M: f64 = 1000.0;
/// Longest random lap, metres.
pub const MAX_LAP_M: f64 = 5000.0;

/// Distance beyond the band edge, in pixels, that lidar rays, specks, blobs
/// and noise keep from the track so that they never touch it.
const KEEP_OFF_PX: f64 = 3.0;
/// Spacing of the random centerline's points, metres (MapZoo centerlines use 0.1 m).
const POINT_SPACING: f64 = 0.1;

/// Typed errors of the generator: a bad option, or a map that cannot be built.
#[derive(Debug, thiserror::Error)]
pub enum SynthError {
    /// An option is out of range; `field` names it.
    #[error("synthetic map option \"{field}\": {what}")]
    Option {
        /// The option (field of [`SynthOptions`] or of one of its parts).
        field: &'static str,
        /// What is wrong and what to do.
        what: String,
    },
    /// The track does not fit into the requested image size.
    #[error("the track needs {need_width}×{need_height} px at {resolution} m/px but the image is {width}×{height} px; use a larger image size or a coarser resolution")]
    DoesNotFit {
        /// Pixels the track needs across.
        need_width: usize,
        /// Pixels the track needs down.
        need_height: usize,
        /// Requested image width, pixels.
        width: usize,
        /// Requested image height, pixels.
        height: usize,
        /// Metres per pixel.
        resolution: f64,
    },
    /// The image would be larger than [`MAX_SIDE`] / [`MAX_PIXELS`].
    #[error("the image would be {width}×{height} px, more than the generator's limit of {MAX_SIDE} px a side and {MAX_PIXELS} px in all; use a coarser resolution or a smaller margin")]
    TooLarge {
        /// Image width, pixels.
        width: usize,
        /// Image height, pixels.
        height: usize,
    },
    /// A spur, pocket or wall gap would touch another part of the track.
    #[error("cannot place {what} at s = {s:.2} m: {why}")]
    Placement {
        /// The feature, e.g. `spur 2`.
        what: String,
        /// Arc length where it was asked for, metres.
        s: f64,
        /// Why, and what to do.
        why: String,
    },
}

/// A small, dependency-free PRNG (SplitMix64) whose output never changes
/// between crate versions, so generated maps stay byte-stable.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// An independent stream for one feature (`tag`) of the map with `seed`.
    pub fn stream(seed: u64, tag: u64) -> Self {
        let mut mix = SplitMix64::new(tag.wrapping_mul(0xD1B5_4A32_D192_ED03));
        let offset = mix.next_u64();
        let mut s = SplitMix64::new(seed ^ offset);
        s.next_u64();
        s
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1), 53 bits.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in [lo, hi).
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next_f64()
    }

    /// Uniform integer in 0..n (0 when n = 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// A fair coin.
    pub fn coin(&mut self) -> bool {
        self.next_u64() >> 63 == 1
    }
}

/// Stream tags: one per feature so that each draws its own numbers.
mod tag {
    pub const LAP: u64 = 1;
    pub const SHAPE: u64 = 2;
    pub const WIDTH: u64 = 3;
    pub const OBSTACLES: u64 = 4;
    pub const SPURS: u64 = 5;
    pub const POCKETS: u64 = 6;
    pub const GAP: u64 = 7;
    pub const BLOBS: u64 = 8;
    pub const RAYS: u64 = 9;
    pub const SPECKS: u64 = 10;
    pub const NOISE: u64 = 11;
}

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

/// One point of the true centerline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TruthPoint {
    /// World x, metres.
    pub x: f64,
    /// World y, metres.
    pub y: f64,
    /// Arc length from point 0, metres.
    pub s: f64,
    /// Distance to the right track edge, metres (half the width; spurs and pockets not counted).
    pub d_right: f64,
    /// Distance to the left track edge, metres (half the width).
    pub d_left: f64,
    /// Heading, radians, 0 = +x, counter-clockwise positive, in (−π, π].
    pub psi: f64,
    /// Signed curvature, 1/m, positive turning left.
    pub kappa: f64,
}

impl TruthPoint {
    /// Full track width here, metres.
    pub fn width(&self) -> f64 {
        self.d_left + self.d_right
    }
}

/// An obstacle as placed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlacedObstacle {
    /// Arc length of its centre, metres.
    pub s: f64,
    /// Lateral offset from the centerline, metres, positive left.
    pub offset: f64,
    /// World position of its centre, metres.
    pub center: [f64; 2],
    /// Track heading it is aligned with, radians.
    pub heading: f64,
    /// Its shape.
    pub shape: ObstacleShape,
    /// Free width between it and the left edge, metres (negative: it overlaps the wall).
    pub passage_left: f64,
    /// Free width between it and the right edge, metres.
    pub passage_right: f64,
}

/// A spur as placed: a capsule from the centerline point at `s` to `tip`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlacedSpur {
    /// Arc length where it branches off, metres.
    pub s: f64,
    /// Left or right of the driving direction.
    pub side: Side,
    /// Centerline point it starts from, world metres.
    pub root: [f64; 2],
    /// Its dead end, world metres.
    pub tip: [f64; 2],
    /// Corridor width, metres.
    pub width: f64,
}

/// A pocket as placed: a disc merged into the track.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlacedPocket {
    /// Arc length of its middle, metres.
    pub s: f64,
    /// Left or right of the driving direction.
    pub side: Side,
    /// Disc centre, world metres.
    pub center: [f64; 2],
    /// Disc radius, metres.
    pub radius: f64,
    /// Reach beyond the track edge, metres.
    pub depth: f64,
}

/// The wall gap as placed: where the free space leaks to the image border.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlacedGap {
    /// Arc length where the corridor leaves the track, metres.
    pub s: f64,
    /// Left or right of the driving direction (the outer side).
    pub side: Side,
    /// Corridor width, metres.
    pub width: f64,
    /// Unit direction of the corridor, world.
    pub direction: [f64; 2],
    /// World point where the corridor crosses the track edge, metres.
    pub wall_world: [f64; 2],
    /// Pixel (col, row) where the corridor crosses the track edge.
    pub wall_pixel: [usize; 2],
    /// World point where the corridor's axis meets the image border, metres.
    pub border_world: [f64; 2],
    /// Pixel (col, row) on the image border at the corridor's axis.
    pub border_pixel: [usize; 2],
}

/// What the map was drawn from, for comparing extraction results.
#[derive(Debug, Clone, PartialEq)]
pub struct GroundTruth {
    /// The centerline, closed implicitly (the last point is not a copy of the first).
    pub centerline: Vec<TruthPoint>,
    /// Lap length, metres.
    pub lap_length: f64,
    /// Whether the centerline runs counter-clockwise (infield on the left).
    pub counter_clockwise: bool,
    /// Obstacles, in the order given then random.
    pub obstacles: Vec<PlacedObstacle>,
    /// Spurs, in the order given then random.
    pub spurs: Vec<PlacedSpur>,
    /// Pockets, in the order given then random.
    pub pockets: Vec<PlacedPocket>,
    /// The wall gap, if any.
    pub gap: Option<PlacedGap>,
}

/// A generated map: gray pixels, map-server metadata and the truth.
#[derive(Debug, Clone, PartialEq)]
pub struct SynthMap {
    /// Image width, pixels.
    pub width: usize,
    /// Image height, pixels.
    pub height: usize,
    /// Gray values, row-major, row 0 on top: 254 free, 0 occupied, 205 unknown, ramps between.
    pub gray: Vec<u8>,
    /// The YAML metadata (image `synth.png` until written under another name).
    pub meta: MapMeta,
    /// What it was drawn from.
    pub truth: GroundTruth,
}

impl SynthMap {
    /// Gray value of pixel (col, row); `None` outside the image.
    pub fn pixel(&self, col: i64, row: i64) -> Option<u8> {
        if col < 0 || row < 0 || col as usize >= self.width || row as usize >= self.height {
            return None;
        }
        Some(self.gray[row as usize * self.width + col as usize])
    }

    /// Fractional pixel (col, row) of world point (x, y) (DESIGN §2.1 convention).
    pub fn world_to_pixel(&self, x: f64, y: f64) -> (f64, f64) {
        map::world_to_pixel(self.meta.origin, self.meta.resolution, self.height, x, y)
    }

    /// World (x, y) of pixel (col, row), metres.
    pub fn pixel_to_world(&self, col: f64, row: f64) -> (f64, f64) {
        map::pixel_to_world(
            self.meta.origin,
            self.meta.resolution,
            self.height,
            col,
            row,
        )
    }

    /// The map classified as the loader would classify it from the files.
    pub fn occupancy(&self, rule: FreeRule) -> OccupancyMap {
        OccupancyMap::from_gray(self.width, self.height, self.gray.clone(), &self.meta, rule)
    }

    /// Writes `dir/<name>.png` and `dir/<name>.yaml` (image field `<name>.png`); returns both paths.
    pub fn write(&self, dir: &Path, name: &str) -> Result<[PathBuf; 2], FormatError> {
        let png = dir.join(format!("{name}.png"));
        let yaml = dir.join(format!("{name}.yaml"));
        let meta = MapMeta {
            image: format!("{name}.png"),
            ..self.meta.clone()
        };
        map::write_gray_png(&png, self.width, self.height, &self.gray)?;
        meta.write(&yaml)?;
        Ok([png, yaml])
    }
}

/// Generates a map from the options; deterministic in (`seed`, options).
pub fn generate(opts: &SynthOptions) -> Result<SynthMap, SynthError> {
    validate(opts)?;
    let res = opts.resolution;
    let track = match &opts.centerline {
        CenterlineSpec::Random { lap_length } => {
            let lap = match lap_length {
                Some(l) => *l,
                None => SplitMix64::stream(opts.seed, tag::LAP).uniform(40.0, 150.0),
            };
            random_track(opts.seed, lap, opts.width, opts.min_wall)?
        }
        CenterlineSpec::Points { points, widths } => {
            given_track(points, widths.as_deref(), opts.width, opts.seed)?
        }
    };

    let spurs = place_spurs(opts, &track)?;
    let pockets = place_pockets(opts, &track)?;
    let obstacles = place_obstacles(opts, &track);

    // Frame: the bounding box of everything free, plus the margin.
    let mut bbox = Bbox::empty();
    for p in &track.points {
        bbox.add_disc([p.x, p.y], p.d_left.max(p.d_right));
    }
    for sp in &spurs {
        bbox.add_disc(sp.tip, sp.width / 2.0);
    }
    for pk in &pockets {
        bbox.add_disc(pk.center, pk.radius);
    }
    let frame = Frame::fit(&bbox, opts)?;

    let gap = match &opts.wall_gap {
        Some(spec) => Some(place_gap(opts, spec, &track, &frame)?),
        None => None,
    };

    let (w, h) = (frame.width, frame.height);
    let ramp = opts.anti_alias.unwrap_or(0.0);
    let keep_off = KEEP_OFF_PX + 1.0;
    let reach = (ramp + 1.0)
        .max(keep_off)
        .max(opts.wall_thickness.map_or(0.0, |t| t / res + 1.0));
    let mut field = Field::new(w, h, reach);

    // Free space: the band, spurs, pockets and the gap corridor (pixel units).
    let centre_px: Vec<[f64; 2]> = track
        .points
        .iter()
        .map(|p| frame.to_px([p.x, p.y]))
        .collect();
    let radius_px: Vec<f64> = track.points.iter().map(|p| p.d_left / res).collect();
    field.band(&centre_px, &radius_px);
    for sp in &spurs {
        let r = sp.width / 2.0 / res;
        field.capsule(frame.to_px(sp.root), frame.to_px(sp.tip), r, r);
    }
    for pk in &pockets {
        let c = frame.to_px(pk.center);
        field.capsule(c, c, pk.radius / res, pk.radius / res);
    }
    if let Some(g) = &gap {
        let r = g.width / 2.0 / res;
        let start = frame.to_px(point_at(&track, g.s).0);
        // Past the border by the corridor's radius so that it is open across its whole width.
        let beyond = add(g.border_world, scale(g.direction, (r + 2.0) * res));
        field.capsule(start, frame.to_px(beyond), r, r);
    }

    // Gray from the distance to the free region's edge.
    let mut gray = vec![OCCUPIED; w * h];
    let unknown_beyond = opts.wall_thickness.map(|t| t / res);
    for (g, &f) in gray.iter_mut().zip(field.dist.iter()) {
        let f = f as f64;
        *g = if ramp > 0.0 && f.abs() < ramp / 2.0 {
            coverage_gray(0.5 - f / ramp)
        } else if f <= 0.0 {
            FREE
        } else {
            OCCUPIED
        };
        if let Some(t) = unknown_beyond {
            if f > t && *g == OCCUPIED {
                *g = UNKNOWN;
            }
        }
    }

    for ob in &obstacles {
        carve_obstacle(&mut gray, &frame, ob, ramp);
    }
    add_unknown_blobs(opts, &mut gray, &field, &frame);
    add_lidar_rays(opts, &mut gray, &field, &frame, &track);
    add_specks(opts, &mut gray, &field, &frame);
    add_noise(opts, &mut gray, &field);

    let meta = MapMeta {
        image: "synth.png".to_string(),
        resolution: res,
        origin: [frame.origin[0], frame.origin[1], 0.0],
        negate: 0,
        occupied_thresh: 0.65,
        free_thresh: 0.196,
        mode: None,
    };
    let lap_length = track.lap;
    let counter_clockwise = track.ccw;
    Ok(SynthMap {
        width: w,
        height: h,
        gray,
        meta,
        truth: GroundTruth {
            centerline: track.points,
            lap_length,
            counter_clockwise,
            obstacles,
            spurs,
            pockets,
            gap,
        },
    })
}

fn opt_err(field: &'static str, what: impl Into<String>) -> SynthError {
    SynthError::Option {
        field,
        what: what.into(),
    }
}

fn positive(field: &'static str, v: f64) -> Result<(), SynthError> {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err(opt_err(
            field,
            format!("must be a finite number > 0 (found {v})"),
        ))
    }
}

/// A feature size: finite, > 0 and at most [`MAX_FEATURE_M`].
fn size(field: &'static str, v: f64) -> Result<(), SynthError> {
    positive(field, v)?;
    if v > MAX_FEATURE_M {
        return Err(opt_err(
            field,
            format!("must be at most {MAX_FEATURE_M} m (found {v})"),
        ));
    }
    Ok(())
}

fn finite(field: &'static str, v: f64) -> Result<(), SynthError> {
    if v.is_finite() {
        Ok(())
    } else {
        Err(opt_err(field, format!("must be finite (found {v})")))
    }
}

fn validate(opts: &SynthOptions) -> Result<(), SynthError> {
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
                format!("must be at most {MAX_LAP_M} m (found {l} m)"),
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

/// The centerline with its widths, ready to rasterise.
struct Track {
    points: Vec<TruthPoint>,
    lap: f64,
    ccw: bool,
}

/// Smooth periodic width in [min, max] as a function of the lap fraction u ∈ [0, 1).
struct WidthProfile {
    mid: f64,
    half: f64,
    terms: [(f64, f64); 3],
    norm: f64,
}

impl WidthProfile {
    fn new(spec: WidthSpec, seed: u64) -> Self {
        match spec {
            WidthSpec::Constant(w) => WidthProfile {
                mid: w,
                half: 0.0,
                terms: [(0.0, 0.0); 3],
                norm: 1.0,
            },
            WidthSpec::Smooth { min, max } => {
                let mut rng = SplitMix64::stream(seed, tag::WIDTH);
                let mut terms = [(0.0, 0.0); 3];
                let mut norm = 0.0;
                for (k, t) in terms.iter_mut().enumerate() {
                    let amp = rng.uniform(0.3, 1.0) / (k + 1) as f64;
                    *t = (amp, rng.uniform(0.0, TAU));
                    norm += amp;
                }
                WidthProfile {
                    mid: (min + max) / 2.0,
                    half: (max - min) / 2.0,
                    terms,
                    norm,
                }
            }
        }
    }

    fn at(&self, u: f64) -> f64 {
        let mut v = 0.0;
        for (k, &(amp, phase)) in self.terms.iter().enumerate() {
            v += amp * ((k + 1) as f64 * TAU * u + phase).cos();
        }
        self.mid + self.half * v / self.norm
    }
}

/// Radial Fourier loop r(θ) = 1 + Σ a_k cos(kθ + φ_k), k = 2..=7, Σ|a_k| < 1.
struct Radial {
    terms: Vec<(f64, f64, f64)>,
}

impl Radial {
    /// r, dr/dθ, d²r/dθ² at θ.
    fn eval(&self, theta: f64) -> (f64, f64, f64) {
        let (mut r, mut r1, mut r2) = (1.0, 0.0, 0.0);
        for &(k, a, phi) in &self.terms {
            let (s, c) = (k * theta + phi).sin_cos();
            r += a * c;
            r1 -= a * k * s;
            r2 -= a * k * k * c;
        }
        (r, r1, r2)
    }

    /// Position, first and second derivative with respect to θ (unit scale).
    fn derivs(&self, theta: f64) -> ([f64; 2], [f64; 2], [f64; 2]) {
        let (r, r1, r2) = self.eval(theta);
        let (s, c) = theta.sin_cos();
        (
            [r * c, r * s],
            [r1 * c - r * s, r1 * s + r * c],
            [r2 * c - 2.0 * r1 * s - r * c, r2 * s + 2.0 * r1 * c - r * s],
        )
    }
}

fn random_track(seed: u64, lap: f64, width: WidthSpec, min_wall: f64) -> Result<Track, SynthError> {
    let mut rng = SplitMix64::stream(seed, tag::SHAPE);
    let base: Vec<(f64, f64, f64)> = (2..=7)
        .map(|k| {
            let k = k as f64;
            (
                k,
                rng.uniform(-1.0, 1.0) * 0.55 / k.powf(1.5),
                rng.uniform(0.0, TAU),
            )
        })
        .collect();
    let profile = WidthProfile::new(width, seed);
    let mut amp = 1.0;
    // Shrinking the harmonics makes the loop rounder; at amplitude 0 it is a
    // circle of radius lap/2π, which passes whenever the track fits at all.
    for attempt in 0..60 {
        if attempt == 59 {
            amp = 0.0;
        }
        let radial = Radial {
            terms: base.iter().map(|&(k, a, p)| (k, a * amp, p)).collect(),
        };
        let track = sample_radial(&radial, lap, &profile);
        if track_is_clean(&track, min_wall) {
            return Ok(track);
        }
        amp *= 0.85;
    }
    Err(opt_err(
        "lap_length",
        format!("a {lap} m loop cannot hold this track width without touching itself; use a longer lap or a narrower width"),
    ))
}

fn sample_radial(radial: &Radial, lap: f64, profile: &WidthProfile) -> Track {
    // Arc length of the unit-scale curve by a fine polyline; its error at
    // 8192 samples is far below a pixel.
    const FINE: usize = 8192;
    let mut cum = Vec::with_capacity(FINE + 1);
    cum.push(0.0);
    let mut prev = radial.derivs(0.0).0;
    for i in 1..=FINE {
        let p = radial.derivs(TAU * i as f64 / FINE as f64).0;
        let last = *cum.last().unwrap_or(&0.0);
        cum.push(last + dist(p, prev));
        prev = p;
    }
    let unit_len = cum[FINE];
    let scale_to = lap / unit_len;
    let n = ((lap / POINT_SPACING).round() as usize).max(8);
    let (p0, d0, _) = radial.derivs(0.0);
    let rot = -d0[1].atan2(d0[0]);
    let (rs, rc) = rot.sin_cos();
    let mut points = Vec::with_capacity(n);
    let mut j = 0;
    for i in 0..n {
        let target = unit_len * i as f64 / n as f64;
        while j + 1 < FINE && cum[j + 1] < target {
            j += 1;
        }
        let frac = (target - cum[j]) / (cum[j + 1] - cum[j]);
        let theta = TAU * (j as f64 + frac) / FINE as f64;
        let (p, d1, d2) = radial.derivs(theta);
        let q = [p[0] - p0[0], p[1] - p0[1]];
        let x = (rc * q[0] - rs * q[1]) * scale_to;
        let y = (rs * q[0] + rc * q[1]) * scale_to;
        let psi = wrap_angle(d1[1].atan2(d1[0]) + rot);
        let speed2 = d1[0] * d1[0] + d1[1] * d1[1];
        let kappa = (d1[0] * d2[1] - d1[1] * d2[0]) / speed2.powf(1.5) / scale_to;
        let s = lap * i as f64 / n as f64;
        let w = profile.at(i as f64 / n as f64);
        points.push(TruthPoint {
            x,
            y,
            s,
            d_right: w / 2.0,
            d_left: w / 2.0,
            psi,
            kappa,
        });
    }
    Track {
        points,
        lap,
        ccw: true,
    }
}

/// Whether a sampled loop keeps its inner edge unfolded (radius ≥ width) and
/// leaves `min_wall` between parts farther apart than π·w_max along the lap.
fn track_is_clean(track: &Track, min_wall: f64) -> bool {
    let (points, lap) = (&track.points, track.lap);
    let w_max = points.iter().map(|p| p.width()).fold(0.0, f64::max);
    if points.iter().any(|p| p.kappa.abs() * p.width() > 1.0) {
        return false;
    }
    let window = PI * w_max;
    // Bucket grid so the pair test is near-linear.
    let cell = w_max + min_wall;
    let grid = Grid::new(points.iter().map(|p| [p.x, p.y]), cell);
    for (i, p) in points.iter().enumerate() {
        for j in grid.near([p.x, p.y]) {
            if j <= i {
                continue;
            }
            let q = &points[j];
            let ds = (q.s - p.s).abs();
            if ds.min(lap - ds) <= window {
                continue;
            }
            let need = p.d_left.max(p.d_right) + q.d_left.max(q.d_right) + min_wall;
            if dist([p.x, p.y], [q.x, q.y]) < need {
                return false;
            }
        }
    }
    true
}

/// Uniform bucket grid over points; `near` lists the points in the 3×3 cells around a query.
struct Grid {
    cell: f64,
    min: [f64; 2],
    cols: usize,
    rows: usize,
    buckets: Vec<Vec<usize>>,
}

impl Grid {
    fn new(points: impl Iterator<Item = [f64; 2]> + Clone, cell: f64) -> Self {
        let mut min = [f64::INFINITY; 2];
        let mut max = [f64::NEG_INFINITY; 2];
        for p in points.clone() {
            for k in 0..2 {
                min[k] = min[k].min(p[k]);
                max[k] = max[k].max(p[k]);
            }
        }
        // Coarser cells for huge extents keep the bucket count bounded; a cell
        // at least `cell` wide still finds every pair within `cell`.
        const MAX_CELLS: f64 = 1024.0;
        let cell = cell
            .max((max[0] - min[0]) / MAX_CELLS)
            .max((max[1] - min[1]) / MAX_CELLS);
        let cols = ((max[0] - min[0]) / cell) as usize + 1;
        let rows = ((max[1] - min[1]) / cell) as usize + 1;
        let mut grid = Grid {
            cell,
            min,
            cols,
            rows,
            buckets: vec![Vec::new(); cols * rows],
        };
        for (i, p) in points.enumerate() {
            let (c, r) = grid.cell_of(p);
            grid.buckets[r * cols + c].push(i);
        }
        grid
    }

    fn cell_of(&self, p: [f64; 2]) -> (usize, usize) {
        let c = ((p[0] - self.min[0]) / self.cell).max(0.0) as usize;
        let r = ((p[1] - self.min[1]) / self.cell).max(0.0) as usize;
        (c.min(self.cols - 1), r.min(self.rows - 1))
    }

    fn near(&self, p: [f64; 2]) -> impl Iterator<Item = usize> + '_ {
        let (c, r) = self.cell_of(p);
        let (c0, c1) = (c.saturating_sub(1), (c + 1).min(self.cols - 1));
        let (r0, r1) = (r.saturating_sub(1), (r + 1).min(self.rows - 1));
        (r0..=r1).flat_map(move |rr| {
            (c0..=c1).flat_map(move |cc| self.buckets[rr * self.cols + cc].iter().copied())
        })
    }
}

fn given_track(
    raw: &[[f64; 2]],
    widths: Option<&[f64]>,
    width: WidthSpec,
    seed: u64,
) -> Result<Track, SynthError> {
    if let Some(i) = raw
        .iter()
        .position(|p| !(p[0].is_finite() && p[1].is_finite()))
    {
        return Err(opt_err(
            "centerline.points",
            format!("point {i} is not finite ({:?})", raw[i]),
        ));
    }
    if let Some(ws) = widths {
        if ws.len() != raw.len() {
            return Err(opt_err(
                "centerline.widths",
                format!(
                    "{} widths for {} points; give one per point",
                    ws.len(),
                    raw.len()
                ),
            ));
        }
        if let Some(i) = ws.iter().position(|w| !(w.is_finite() && *w > 0.0)) {
            return Err(opt_err(
                "centerline.widths",
                format!("width {i} must be a finite number > 0 (found {})", ws[i]),
            ));
        }
    }
    // Drop repeated points (and a closing copy of point 0), keeping widths aligned.
    let mut pts: Vec<[f64; 2]> = Vec::with_capacity(raw.len());
    let mut ws: Vec<f64> = Vec::with_capacity(raw.len());
    for (i, &p) in raw.iter().enumerate() {
        if pts.last().is_some_and(|&q| dist(p, q) < 1e-9) {
            continue;
        }
        pts.push(p);
        ws.push(widths.map_or(f64::NAN, |w| w[i]));
    }
    while pts.len() > 1 && dist(pts[0], pts[pts.len() - 1]) < 1e-9 {
        pts.pop();
        ws.pop();
    }
    let n = pts.len();
    if n < 3 {
        return Err(opt_err(
            "centerline.points",
            format!("a closed centerline needs at least 3 distinct points (found {n})"),
        ));
    }
    let mut s = vec![0.0; n];
    for i in 1..n {
        s[i] = s[i - 1] + dist(pts[i - 1], pts[i]);
    }
    let lap = s[n - 1] + dist(pts[n - 1], pts[0]);
    let area: f64 = (0..n)
        .map(|i| {
            let (a, b) = (pts[i], pts[(i + 1) % n]);
            a[0] * b[1] - b[0] * a[1]
        })
        .sum();
    let profile = WidthProfile::new(width, seed);
    let points = (0..n)
        .map(|i| {
            let (a, p, b) = (pts[(i + n - 1) % n], pts[i], pts[(i + 1) % n]);
            let w = if widths.is_some() {
                ws[i]
            } else {
                profile.at(s[i] / lap)
            };
            TruthPoint {
                x: p[0],
                y: p[1],
                s: s[i],
                d_right: w / 2.0,
                d_left: w / 2.0,
                psi: wrap_angle((b[1] - a[1]).atan2(b[0] - a[0])),
                kappa: menger_curvature(a, p, b),
            }
        })
        .collect();
    Ok(Track {
        points,
        lap,
        ccw: area >= 0.0,
    })
}

/// Signed curvature of the circle through three points, 1/m, positive turning left.
fn menger_curvature(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    let cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    let denom = dist(a, b) * dist(b, c) * dist(a, c);
    if denom > 0.0 {
        2.0 * cross / denom
    } else {
        0.0
    }
}

/// Point, heading and half width at arc length `s` (modulo the lap), linear between points.
fn point_at(track: &Track, s: f64) -> ([f64; 2], f64, f64) {
    let pts = &track.points;
    let n = pts.len();
    let s = s.rem_euclid(track.lap);
    let i = match pts.binary_search_by(|p| p.s.total_cmp(&s)) {
        Ok(i) => i,
        Err(i) => i.saturating_sub(1),
    };
    let (a, b) = (&pts[i], &pts[(i + 1) % n]);
    let seg = if i + 1 < n {
        b.s - a.s
    } else {
        track.lap - a.s
    };
    let t = if seg > 0.0 {
        ((s - a.s) / seg).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let p = [a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)];
    let heading = (b.y - a.y).atan2(b.x - a.x);
    let hw = a.d_left + t * (b.d_left - a.d_left);
    (p, heading, hw)
}

/// Resolves Outer/Inner to Left/Right for this track's direction.
fn resolve_side(side: Side, ccw: bool) -> Side {
    match (side, ccw) {
        (Side::Outer, true) | (Side::Inner, false) => Side::Right,
        (Side::Outer, false) | (Side::Inner, true) => Side::Left,
        (s, _) => s,
    }
}

/// Unit normal towards `side` (Left or Right) of heading `psi`.
fn side_normal(side: Side, psi: f64) -> [f64; 2] {
    let (s, c) = psi.sin_cos();
    match side {
        Side::Left => [-s, c],
        _ => [s, -c],
    }
}

/// Signed distance from world point q to the band's edge (negative inside), metres,
/// and the arc length of the nearest centerline point.
fn band_distance(track: &Track, q: [f64; 2]) -> (f64, f64) {
    let pts = &track.points;
    let n = pts.len();
    let mut best = (f64::INFINITY, 0.0);
    for i in 0..n {
        let (a, b) = (&pts[i], &pts[(i + 1) % n]);
        let ab = [b.x - a.x, b.y - a.y];
        let aq = [q[0] - a.x, q[1] - a.y];
        let len2 = ab[0] * ab[0] + ab[1] * ab[1];
        let t = if len2 > 0.0 {
            ((aq[0] * ab[0] + aq[1] * ab[1]) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let d =
            dist(q, [a.x + t * ab[0], a.y + t * ab[1]]) - (a.d_left + t * (b.d_left - a.d_left));
        if d < best.0 {
            let seg = if i + 1 < n {
                b.s - a.s
            } else {
                track.lap - a.s
            };
            best = (d, a.s + t * seg);
        }
    }
    best
}

fn arc_gap(track: &Track, s1: f64, s2: f64) -> f64 {
    let d = (s1 - s2).rem_euclid(track.lap);
    d.min(track.lap - d)
}

/// Whether the straight corridor root + dir·u, u ∈ [from, to], radius `r`, keeps
/// `clear` metres from every part of the track (the part it leaves lies before `from`).
fn corridor_is_clear(
    track: &Track,
    root: [f64; 2],
    dir: [f64; 2],
    from: f64,
    to: f64,
    r: f64,
    clear: f64,
) -> bool {
    let step = 0.05_f64.min(r.max(0.01));
    let mut u = from;
    while u <= to {
        let q = add(root, scale(dir, u));
        if band_distance(track, q).0 < r + clear {
            return false;
        }
        u += step;
    }
    true
}

/// Distance along a corridor tilted by `tilt` from the wall normal beyond
/// which the corridor must be clear of the track: past the local edge by its
/// width and the clearance.
fn corridor_start(hw: f64, r: f64, clear: f64, tilt: f64) -> f64 {
    (hw + 2.0 * r + clear) / tilt.cos().max(0.2)
}

fn place_spurs(opts: &SynthOptions, track: &Track) -> Result<Vec<PlacedSpur>, SynthError> {
    let clear = (KEEP_OFF_PX * opts.resolution).max(0.1);
    let build = |spec: &SpurSpec| -> Option<PlacedSpur> {
        let side = resolve_side(spec.side, track.ccw);
        let (p, psi, hw) = point_at(track, spec.s);
        let n = side_normal(side, psi);
        // Positive angle tilts the spur towards the driving direction.
        let along = [psi.cos(), psi.sin()];
        let dir = add(scale(n, spec.angle.cos()), scale(along, spec.angle.sin()));
        let len = hw + spec.length;
        let r = spec.width / 2.0;
        let from = corridor_start(hw, r, clear, spec.angle);
        if !corridor_is_clear(track, p, dir, from, len, r, clear) {
            return None;
        }
        Some(PlacedSpur {
            s: spec.s.rem_euclid(track.lap),
            side,
            root: p,
            tip: add(p, scale(dir, len)),
            width: spec.width,
        })
    };
    let mut out = Vec::new();
    for (i, spec) in opts.spurs.iter().enumerate() {
        out.push(build(spec).ok_or_else(|| {
            SynthError::Placement {
                what: format!("spur {i}"),
                s: spec.s,
                why:
                    "it would come within reach of another part of the track; shorten it or move it"
                        .into(),
            }
        })?);
    }
    let mut rng = SplitMix64::stream(opts.seed, tag::SPURS);
    for _ in 0..opts.random_spurs {
        for _try in 0..30 {
            let spec = SpurSpec {
                s: rng.uniform(0.0, track.lap),
                side: Side::Outer,
                length: rng.uniform(0.6, 1.8),
                width: rng.uniform(0.2, 0.45),
                angle: rng.uniform(-0.5, 0.5),
            };
            if let Some(sp) = build(&spec) {
                out.push(sp);
                break;
            }
        }
    }
    Ok(out)
}

fn place_pockets(opts: &SynthOptions, track: &Track) -> Result<Vec<PlacedPocket>, SynthError> {
    let clear = (KEEP_OFF_PX * opts.resolution).max(0.1);
    let w_max = track.points.iter().map(|p| p.width()).fold(0.0, f64::max);
    let build = |spec: &PocketSpec| -> Option<PlacedPocket> {
        let side = resolve_side(spec.side, track.ccw);
        let (p, psi, hw) = point_at(track, spec.s);
        let n = side_normal(side, psi);
        let center = add(p, scale(n, hw + spec.depth - spec.radius));
        let window = 2.0 * spec.radius + PI * w_max;
        // The rim must keep `clear` from every part of the track outside the pocket's own stretch.
        let steps = 72;
        for k in 0..steps {
            let a = TAU * k as f64 / steps as f64;
            let q = add(center, [spec.radius * a.cos(), spec.radius * a.sin()]);
            let (d, s_near) = band_distance(track, q);
            if d < clear && arc_gap(track, s_near, spec.s) > window {
                return None;
            }
        }
        Some(PlacedPocket {
            s: spec.s.rem_euclid(track.lap),
            side,
            center,
            radius: spec.radius,
            depth: spec.depth,
        })
    };
    let mut out = Vec::new();
    for (i, spec) in opts.pockets.iter().enumerate() {
        out.push(build(spec).ok_or_else(|| SynthError::Placement {
            what: format!("pocket {i}"),
            s: spec.s,
            why: "it would come within reach of another part of the track; make it smaller or move it".into(),
        })?);
    }
    let mut rng = SplitMix64::stream(opts.seed, tag::POCKETS);
    for _ in 0..opts.random_pockets {
        for _try in 0..30 {
            let spec = PocketSpec {
                s: rng.uniform(0.0, track.lap),
                side: if rng.coin() { Side::Outer } else { Side::Inner },
                depth: rng.uniform(0.3, 0.8),
                radius: rng.uniform(0.5, 1.2),
            };
            if let Some(pk) = build(&spec) {
                out.push(pk);
                break;
            }
        }
    }
    Ok(out)
}

fn place_obstacles(opts: &SynthOptions, track: &Track) -> Vec<PlacedObstacle> {
    let place = |spec: &ObstacleSpec| -> PlacedObstacle {
        let (p, psi, hw) = point_at(track, spec.s);
        let n = side_normal(Side::Left, psi);
        let e = spec.shape.half_across();
        PlacedObstacle {
            s: spec.s.rem_euclid(track.lap),
            offset: spec.offset,
            center: add(p, scale(n, spec.offset)),
            heading: psi,
            shape: spec.shape,
            passage_left: hw - spec.offset - e,
            passage_right: hw + spec.offset - e,
        }
    };
    let mut out: Vec<PlacedObstacle> = opts.obstacles.iter().map(place).collect();
    let k = opts.random_obstacles;
    if k > 0 {
        let mut rng = SplitMix64::stream(opts.seed, tag::OBSTACLES);
        let base = rng.uniform(0.0, track.lap);
        for i in 0..k {
            // Spread along the lap, so that obstacles do not pile up.
            let s = base + track.lap * (i as f64 + rng.uniform(0.2, 0.8)) / k as f64;
            let shape = if rng.coin() {
                ObstacleShape::Disc {
                    radius: rng.uniform(0.1, 0.25),
                }
            } else {
                ObstacleShape::Box {
                    length: rng.uniform(0.2, 0.5),
                    width: rng.uniform(0.2, 0.4),
                }
            };
            let (_, _, hw) = point_at(track, s);
            // Off-centre but leaving a passage on both sides.
            let room = (hw - shape.half_across()).max(0.0);
            let mag = rng.uniform(0.15, 0.5) * room;
            let offset = if rng.coin() { mag } else { -mag };
            out.push(place(&ObstacleSpec { s, offset, shape }));
        }
    }
    out
}

/// Image size and origin.
struct Frame {
    width: usize,
    height: usize,
    origin: [f64; 2],
    res: f64,
}

impl Frame {
    fn fit(bbox: &Bbox, opts: &SynthOptions) -> Result<Frame, SynthError> {
        let res = opts.resolution;
        let need = |lo: f64, hi: f64| ((hi - lo) / res).ceil() + 1.0;
        let (nw, nh) = (
            need(bbox.min[0], bbox.max[0]),
            need(bbox.min[1], bbox.max[1]),
        );
        let (width, height, origin) = match opts.image_size {
            Some([w, h]) => {
                if nw > w as f64 || nh > h as f64 {
                    return Err(SynthError::DoesNotFit {
                        need_width: nw.min(1e12) as usize,
                        need_height: nh.min(1e12) as usize,
                        width: w,
                        height: h,
                        resolution: res,
                    });
                }
                let cx = (bbox.min[0] + bbox.max[0]) / 2.0;
                let cy = (bbox.min[1] + bbox.max[1]) / 2.0;
                let mut ox = round_mm(cx - (w as f64 - 1.0) / 2.0 * res);
                let mut oy = round_mm(cy - (h as f64 - 1.0) / 2.0 * res);
                // Rounding the origin may push an edge out by < 1 mm; pull it back in.
                if ox > bbox.min[0] {
                    ox = floor_mm(bbox.min[0]);
                }
                if oy > bbox.min[1] {
                    oy = floor_mm(bbox.min[1]);
                }
                (w, h, [ox, oy])
            }
            None => {
                let ox = floor_mm(bbox.min[0] - opts.margin);
                let oy = floor_mm(bbox.min[1] - opts.margin);
                let w = ((bbox.max[0] + opts.margin - ox) / res).ceil() + 1.0;
                let h = ((bbox.max[1] + opts.margin - oy) / res).ceil() + 1.0;
                if !(w <= MAX_SIDE as f64 && h <= MAX_SIDE as f64 && w * h <= MAX_PIXELS as f64) {
                    return Err(SynthError::TooLarge {
                        width: w.min(1e12) as usize,
                        height: h.min(1e12) as usize,
                    });
                }
                (w as usize, h as usize, [ox, oy])
            }
        };
        Ok(Frame {
            width,
            height,
            origin,
            res,
        })
    }

    /// World → fractional pixel (col, row).
    fn to_px(&self, p: [f64; 2]) -> [f64; 2] {
        [
            (p[0] - self.origin[0]) / self.res,
            (self.height as f64 - 1.0) - (p[1] - self.origin[1]) / self.res,
        ]
    }

    /// Fractional pixel (col, row) → world.
    fn to_world(&self, c: f64, r: f64) -> [f64; 2] {
        [
            self.origin[0] + c * self.res,
            self.origin[1] + (self.height as f64 - 1.0 - r) * self.res,
        ]
    }

    fn pixel_of(&self, p: [f64; 2]) -> [usize; 2] {
        let q = self.to_px(p);
        [
            q[0].round().clamp(0.0, self.width as f64 - 1.0) as usize,
            q[1].round().clamp(0.0, self.height as f64 - 1.0) as usize,
        ]
    }
}

fn round_mm(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

fn floor_mm(v: f64) -> f64 {
    (v * 1000.0).floor() / 1000.0
}

struct Bbox {
    min: [f64; 2],
    max: [f64; 2],
}

impl Bbox {
    fn empty() -> Self {
        Bbox {
            min: [f64::INFINITY; 2],
            max: [f64::NEG_INFINITY; 2],
        }
    }

    fn add_disc(&mut self, c: [f64; 2], r: f64) {
        for ((lo, hi), v) in self.min.iter_mut().zip(self.max.iter_mut()).zip(c) {
            *lo = lo.min(v - r);
            *hi = hi.max(v + r);
        }
    }
}

fn place_gap(
    opts: &SynthOptions,
    spec: &GapSpec,
    track: &Track,
    frame: &Frame,
) -> Result<PlacedGap, SynthError> {
    let mut rng = SplitMix64::stream(opts.seed, tag::GAP);
    // A given s is tried alone; a random one is redrawn until a corridor fits.
    let candidates: Vec<f64> = match spec.s {
        Some(s) => vec![s.rem_euclid(track.lap)],
        None => (0..24).map(|_| rng.uniform(0.0, track.lap)).collect(),
    };
    let side = resolve_side(Side::Outer, track.ccw);
    let r = spec.width / 2.0;
    let clear = (KEEP_OFF_PX * opts.resolution).max(0.1);
    // The wall normal first, then directions tilted from it, until one reaches
    // the border without passing near another part of the track.
    let tilts = [
        0.0, 0.25, -0.25, 0.5, -0.5, 0.75, -0.75, 1.0, -1.0, 1.25, -1.25,
    ];
    for &s in &candidates {
        let (p, psi, hw) = point_at(track, s);
        let n = side_normal(side, psi);
        for tilt in tilts {
            let (ts, tc) = f64::sin_cos(tilt);
            let dir = [n[0] * tc - n[1] * ts, n[0] * ts + n[1] * tc];
            let Some(len) = ray_to_border(frame, p, dir) else {
                continue;
            };
            let from = corridor_start(hw, r, clear, tilt);
            if len <= from || !corridor_is_clear(track, p, dir, from, len, r, clear) {
                continue;
            }
            // Where the corridor's axis leaves the band: bisect the edge distance.
            let (mut inside, mut outside) = (0.0, from);
            for _ in 0..40 {
                let mid = 0.5 * (inside + outside);
                if band_distance(track, add(p, scale(dir, mid))).0 < 0.0 {
                    inside = mid;
                } else {
                    outside = mid;
                }
            }
            let wall_world = add(p, scale(dir, 0.5 * (inside + outside)));
            let border_world = add(p, scale(dir, len));
            return Ok(PlacedGap {
                s,
                side,
                width: spec.width,
                direction: dir,
                wall_world,
                wall_pixel: frame.pixel_of(wall_world),
                border_world,
                border_pixel: frame.pixel_of(border_world),
            });
        }
    }
    Err(SynthError::Placement {
        what: "the wall gap".into(),
        s: candidates[0],
        why: "no straight corridor from there reaches the image border without crossing the track; choose another s or a larger margin".into(),
    })
}

/// Distance, metres, from p along unit `dir` to where it leaves the image rectangle.
fn ray_to_border(frame: &Frame, p: [f64; 2], dir: [f64; 2]) -> Option<f64> {
    let lo = frame.to_world(0.0, frame.height as f64 - 1.0);
    let hi = frame.to_world(frame.width as f64 - 1.0, 0.0);
    let mut t_exit = f64::INFINITY;
    for k in 0..2 {
        if dir[k].abs() < 1e-12 {
            continue;
        }
        let bound = if dir[k] > 0.0 { hi[k] } else { lo[k] };
        t_exit = t_exit.min((bound - p[k]) / dir[k]);
    }
    (t_exit.is_finite() && t_exit > 0.0).then_some(t_exit)
}

/// Signed distance to the free region's edge per pixel, pixel units; exact
/// where it is at most `reach`, larger than `reach` (or +∞) elsewhere.
struct Field {
    width: usize,
    height: usize,
    reach: f64,
    dist: Vec<f32>,
}

impl Field {
    fn new(width: usize, height: usize, reach: f64) -> Self {
        Field {
            width,
            height,
            reach,
            dist: vec![f32::INFINITY; width * height],
        }
    }

    fn at(&self, c: i64, r: i64) -> f64 {
        if c < 0 || r < 0 || c as usize >= self.width || r as usize >= self.height {
            return f64::INFINITY;
        }
        self.dist[r as usize * self.width + c as usize] as f64
    }

    /// Unions a capsule a → b with radius ra → rb (pixel units) into the field.
    fn capsule(&mut self, a: [f64; 2], b: [f64; 2], ra: f64, rb: f64) {
        let pad = ra.max(rb) + self.reach;
        let c0 = (a[0].min(b[0]) - pad).floor().max(0.0);
        let c1 = (a[0].max(b[0]) + pad).ceil().min(self.width as f64 - 1.0);
        let r0 = (a[1].min(b[1]) - pad).floor().max(0.0);
        let r1 = (a[1].max(b[1]) + pad).ceil().min(self.height as f64 - 1.0);
        if c0 > c1 || r0 > r1 {
            return;
        }
        let (c0, c1, r0, r1) = (c0 as usize, c1 as usize, r0 as usize, r1 as usize);
        let ab = [b[0] - a[0], b[1] - a[1]];
        let len2 = ab[0] * ab[0] + ab[1] * ab[1];
        let inv = if len2 > 0.0 { 1.0 / len2 } else { 0.0 };
        let dr = rb - ra;
        for r in r0..=r1 {
            let py = r as f64 - a[1];
            let row = &mut self.dist[r * self.width..(r + 1) * self.width];
            for (c, cell) in row.iter_mut().enumerate().take(c1 + 1).skip(c0) {
                let px = c as f64 - a[0];
                let t = ((px * ab[0] + py * ab[1]) * inv).clamp(0.0, 1.0);
                let dx = px - t * ab[0];
                let dy = py - t * ab[1];
                let d = (dx * dx + dy * dy).sqrt() - (ra + t * dr);
                let d = d as f32;
                if d < *cell {
                    *cell = d;
                }
            }
        }
    }
}

impl Field {
    /// Unions the band around the closed polyline `pts` (pixel coordinates)
    /// with radius `radii` (pixels, linear along each segment) into the field.
    ///
    /// Each pixel is evaluated only where its nearest polyline point can be:
    /// in the strip beside a segment (foot point inside it) or, at a vertex,
    /// in the wedge on the convex side. That is a few hundred pixels per
    /// segment instead of the whole bounding box of its capsule. It equals
    /// the union of [`Field::capsule`]s for a constant radius; with a varying
    /// radius it can differ at a vertex by the radius change along the
    /// adjacent segment (a small fraction of a pixel for smooth widths).
    fn band(&mut self, pts: &[[f64; 2]], radii: &[f64]) {
        let n = pts.len();
        for i in 0..n {
            let j = (i + 1) % n;
            self.strip(pts[i], pts[j], radii[i], radii[j]);
            let h = (i + n - 1) % n;
            self.wedge(pts[h], pts[i], pts[j], radii[i]);
        }
    }

    /// The pixels whose foot point on segment a → b lies inside it.
    fn strip(&mut self, a: [f64; 2], b: [f64; 2], ra: f64, rb: f64) {
        let ab = [b[0] - a[0], b[1] - a[1]];
        let len = ab[0].hypot(ab[1]);
        if len < 1e-9 {
            return;
        }
        let u = [ab[0] / len, ab[1] / len];
        let nrm = [-u[1], u[0]];
        let big = ra.max(rb) + self.reach;
        let ys = [
            a[1] + big * nrm[1],
            a[1] - big * nrm[1],
            b[1] + big * nrm[1],
            b[1] - big * nrm[1],
        ];
        let y0 = ys
            .iter()
            .copied()
            .fold(f64::INFINITY, f64::min)
            .floor()
            .max(0.0);
        let y1 = ys
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max)
            .ceil()
            .min(self.height as f64 - 1.0);
        if y0 > y1 {
            return;
        }
        let dr = rb - ra;
        for r in y0 as usize..=y1 as usize {
            let py = r as f64 - a[1];
            // 0 ≤ (p − a)·u ≤ len and |(p − a)·n| ≤ big, each linear in the column.
            let Some((lo, hi)) = clip(u[0], py * u[1], 0.0, len)
                .and_then(|iv| intersect(iv, clip(nrm[0], py * nrm[1], -big, big)?))
            else {
                continue;
            };
            let c0 = (a[0] + lo).ceil().max(0.0);
            let c1 = (a[0] + hi).floor().min(self.width as f64 - 1.0);
            if c0 > c1 {
                continue;
            }
            let row = &mut self.dist[r * self.width..(r + 1) * self.width];
            for (c, cell) in row
                .iter_mut()
                .enumerate()
                .take(c1 as usize + 1)
                .skip(c0 as usize)
            {
                let px = c as f64 - a[0];
                let t = ((px * u[0] + py * u[1]) / len).clamp(0.0, 1.0);
                let d = ((px * nrm[0] + py * nrm[1]).abs() - (ra + t * dr)) as f32;
                if d < *cell {
                    *cell = d;
                }
            }
        }
    }

    /// The pixels nearest to vertex v between segments prev → v and v → next
    /// (the wedge on the convex side of the turn).
    fn wedge(&mut self, prev: [f64; 2], v: [f64; 2], next: [f64; 2], rv: f64) {
        let (l0, l1) = (dist(prev, v), dist(v, next));
        if l0 < 1e-9 || l1 < 1e-9 {
            self.capsule(v, v, rv, rv);
            return;
        }
        let u0 = [(v[0] - prev[0]) / l0, (v[1] - prev[1]) / l0];
        let u1 = [(next[0] - v[0]) / l1, (next[1] - v[1]) / l1];
        let bis = [u0[0] - u1[0], u0[1] - u1[1]];
        let blen = bis[0].hypot(bis[1]);
        if blen < 1e-12 {
            return;
        }
        let big = rv + self.reach;
        let (c0, c1, r0, r1) = if u0[0] * u1[0] + u0[1] * u1[1] > 0.9 {
            // Small turn: the sector hugs its two edge rays and its mid ray.
            let side = |w: [f64; 2], other: [f64; 2], sign: f64| {
                let m = [-w[1], w[0]];
                if (m[0] * other[0] + m[1] * other[1]) * sign >= 0.0 {
                    m
                } else {
                    [-m[0], -m[1]]
                }
            };
            let m0 = side(u0, u1, -1.0);
            let m1 = side(u1, u0, 1.0);
            let mid = [bis[0] / blen, bis[1] / blen];
            let pts = [
                v,
                add(v, scale(m0, big)),
                add(v, scale(m1, big)),
                add(v, scale(mid, big)),
            ];
            let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
            for p in pts {
                for k in 0..2 {
                    lo[k] = lo[k].min(p[k] - 2.0);
                    hi[k] = hi[k].max(p[k] + 2.0);
                }
            }
            (lo[0], hi[0], lo[1], hi[1])
        } else {
            (v[0] - big, v[0] + big, v[1] - big, v[1] + big)
        };
        let c0 = c0.floor().max(0.0);
        let c1 = c1.ceil().min(self.width as f64 - 1.0);
        let r0 = r0.floor().max(0.0);
        let r1 = r1.ceil().min(self.height as f64 - 1.0);
        if c0 > c1 || r0 > r1 {
            return;
        }
        for r in r0 as usize..=r1 as usize {
            let py = r as f64 - v[1];
            for c in c0 as usize..=c1 as usize {
                let px = c as f64 - v[0];
                if px * u0[0] + py * u0[1] < 0.0 || px * u1[0] + py * u1[1] > 0.0 {
                    continue;
                }
                let d = ((px * px + py * py).sqrt() - rv) as f32;
                let cell = &mut self.dist[r * self.width + c];
                if d < *cell {
                    *cell = d;
                }
            }
        }
    }
}

/// The interval of x with lo ≤ x·k + off ≤ hi; `None` if empty; unbounded if k = 0 and it holds.
fn clip(k: f64, off: f64, lo: f64, hi: f64) -> Option<(f64, f64)> {
    if k.abs() < 1e-12 {
        return (lo..=hi)
            .contains(&off)
            .then_some((f64::NEG_INFINITY, f64::INFINITY));
    }
    let (x0, x1) = ((lo - off) / k, (hi - off) / k);
    Some((x0.min(x1), x0.max(x1)))
}

fn intersect(a: (f64, f64), b: (f64, f64)) -> Option<(f64, f64)> {
    let (lo, hi) = (a.0.max(b.0), a.1.min(b.1));
    (lo <= hi).then_some((lo, hi))
}

/// Gray of a pixel whose free coverage is `cov` (clamped to 0..1).
fn coverage_gray(cov: f64) -> u8 {
    (cov.clamp(0.0, 1.0) * FREE as f64).round() as u8
}

fn carve_obstacle(gray: &mut [u8], frame: &Frame, ob: &PlacedObstacle, ramp: f64) {
    let res = frame.res;
    let c = frame.to_px(ob.center);
    // Heading in pixel axes: rows grow downwards, so the y component flips.
    let u = [ob.heading.cos(), -ob.heading.sin()];
    let v = [-u[1], u[0]];
    let pad = ob.shape.half_along().hypot(ob.shape.half_across()) / res + ramp + 2.0;
    let c0 = (c[0] - pad).floor().max(0.0);
    let c1 = (c[0] + pad).ceil().min(frame.width as f64 - 1.0);
    let r0 = (c[1] - pad).floor().max(0.0);
    let r1 = (c[1] + pad).ceil().min(frame.height as f64 - 1.0);
    if c0 > c1 || r0 > r1 {
        return;
    }
    for r in r0 as usize..=r1 as usize {
        for col in c0 as usize..=c1 as usize {
            let d = [col as f64 - c[0], r as f64 - c[1]];
            let sdf = match ob.shape {
                ObstacleShape::Disc { radius } => (d[0] * d[0] + d[1] * d[1]).sqrt() - radius / res,
                ObstacleShape::Box { length, width } => {
                    let qx = (d[0] * u[0] + d[1] * u[1]).abs() - length / 2.0 / res;
                    let qy = (d[0] * v[0] + d[1] * v[1]).abs() - width / 2.0 / res;
                    let outside = qx.max(0.0).hypot(qy.max(0.0));
                    outside + qx.max(qy).min(0.0)
                }
            };
            let g = if ramp > 0.0 {
                coverage_gray(0.5 + sdf / ramp)
            } else if sdf <= 0.0 {
                OCCUPIED
            } else {
                FREE
            };
            let cell = &mut gray[r * frame.width + col];
            *cell = (*cell).min(g);
        }
    }
}

fn add_unknown_blobs(opts: &SynthOptions, gray: &mut [u8], field: &Field, frame: &Frame) {
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

fn add_lidar_rays(
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

fn add_specks(opts: &SynthOptions, gray: &mut [u8], field: &Field, frame: &Frame) {
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

fn add_noise(opts: &SynthOptions, gray: &mut [u8], field: &Field) {
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

fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

fn add(a: [f64; 2], b: [f64; 2]) -> [f64; 2] {
    [a[0] + b[0], a[1] + b[1]]
}

fn scale(a: [f64; 2], k: f64) -> [f64; 2] {
    [a[0] * k, a[1] * k]
}

/// Angle wrapped into (−π, π].
fn wrap_angle(a: f64) -> f64 {
    let w = a.rem_euclid(TAU);
    if w > PI {
        w - TAU
    } else {
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The reference twin of [`Field::band`]: every capsule over its whole bounding box.
    fn capsules(w: usize, h: usize, reach: f64, pts: &[[f64; 2]], radii: &[f64]) -> Field {
        let mut f = Field::new(w, h, reach);
        let n = pts.len();
        for i in 0..n {
            let j = (i + 1) % n;
            f.capsule(pts[i], pts[j], radii[i], radii[j]);
        }
        f
    }

    /// A random star-shaped closed polygon in a 64×64 px image.
    fn polygon() -> impl Strategy<Value = (Vec<[f64; 2]>, Vec<f64>)> {
        (3usize..24).prop_flat_map(|n| {
            (
                proptest::collection::vec((6.0f64..26.0, 0.0f64..1.0), n),
                proptest::collection::vec(1.0f64..6.0, n),
            )
                .prop_map(move |(polar, radii)| {
                    let pts = polar
                        .iter()
                        .enumerate()
                        .map(|(i, &(r, jitter))| {
                            let a = TAU * (i as f64 + 0.8 * jitter) / n as f64;
                            [32.0 + r * a.cos(), 32.0 + r * a.sin()]
                        })
                        .collect();
                    (pts, radii)
                })
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        /// With a constant radius the strip-and-wedge band equals the union of capsules.
        #[test]
        fn band_equals_capsules_for_constant_radius((pts, radii) in polygon()) {
            let r = radii[0];
            let radii = vec![r; pts.len()];
            let reach = 3.0;
            let mut fast = Field::new(64, 64, reach);
            fast.band(&pts, &radii);
            let slow = capsules(64, 64, reach, &pts, &radii);
            for (i, (&a, &b)) in fast.dist.iter().zip(&slow.dist).enumerate() {
                if (b as f64) <= reach {
                    prop_assert!((a - b).abs() < 1e-3, "pixel {}: band {} vs capsules {}", i, a, b);
                } else {
                    prop_assert!(a as f64 > reach - 1e-3, "pixel {}: band {} vs capsules {}", i, a, b);
                }
            }
        }

        /// With a varying radius they differ by at most the radius change along one segment.
        #[test]
        fn band_is_close_to_capsules_for_varying_radius((pts, radii) in polygon()) {
            let reach = 3.0;
            let n = pts.len();
            let step = (0..n).map(|i| (radii[(i + 1) % n] - radii[i]).abs()).fold(0.0, f64::max);
            let mut fast = Field::new(64, 64, reach);
            fast.band(&pts, &radii);
            let slow = capsules(64, 64, reach, &pts, &radii);
            for (i, (&a, &b)) in fast.dist.iter().zip(&slow.dist).enumerate() {
                if (b as f64) <= reach - step {
                    let (a, b) = (a as f64, b as f64);
                    prop_assert!(a >= b - 1e-3 && a <= b + step + 1e-3, "pixel {}: band {} vs capsules {}", i, a, b);
                }
            }
        }
    }

    #[test]
    fn splitmix_is_the_reference_sequence() {
        // First outputs of SplitMix64 seeded with 0 (Vigna's reference implementation).
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(r.next_u64(), 0x06C4_5D18_8009_454F);
    }
}
