//! Extraction: occupancy map → cleaned free space → skeleton loop →
//! centerline, walls and boundary distances (DESIGN §3, stages 1–6).

pub mod synth;
