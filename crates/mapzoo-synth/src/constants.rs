//! The grey levels the generator draws with, the limits it accepts, and the spacings it keeps.

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
pub(crate) const KEEP_OFF_PX: f64 = 3.0;
/// Spacing of the random centerline's points, metres (MapZoo centerlines use 0.1 m).
pub(crate) const POINT_SPACING: f64 = 0.1;
