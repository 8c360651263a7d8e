//! What to build: one map, the track's name, where the lap starts and which way it runs
//! ([`BuildRequest`]), and the start pose a built centerline implies ([`start_pose_of`]).

use std::path::PathBuf;

use mapzoo_extract::StartPose;
use mapzoo_format::Waypoint;

/// One map to build.
#[derive(Debug, Clone)]
pub struct BuildRequest {
    /// The map-server YAML.
    pub yaml: PathBuf,
    /// Track name (folder and file prefix); default: the YAML's file stem, less a `_map`
    /// suffix (`Austin_map.yaml` is track `Austin`, as f1tenth_racetracks names it) unless
    /// the YAML's folder is named after the whole stem (`overtake_map/overtake_map.yaml`).
    pub name: Option<String>,
    /// Where waypoint 0 lies and which way the car drives (DESIGN §3.5).
    pub start: Option<StartPose>,
    /// Drive the other way round.
    pub reverse: bool,
}

impl BuildRequest {
    /// The track name: `name`, else the YAML's file stem.
    pub fn track_name(&self) -> String {
        self.name.clone().unwrap_or_else(|| {
            let stem = self
                .yaml
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "track".into());
            // f1tenth_racetracks / f1tenth_gym name a track's map `<T>_map.yaml`: the track is
            // T, unless the map's own folder carries the whole stem (MapZoo's `overtake_map/`).
            let folder = self.yaml.canonicalize().ok().and_then(|p| {
                p.parent()
                    .and_then(|d| d.file_name())
                    .map(|n| n.to_string_lossy().into_owned())
            });
            match stem.strip_suffix("_map") {
                Some(t) if !t.is_empty() && folder.as_deref() != Some(stem.as_str()) => {
                    t.to_string()
                }
                _ => stem,
            }
        })
    }
}

/// The start pose of a centerline: its first point, heading towards the second.
pub fn start_pose_of(centerline: &[Waypoint]) -> Option<StartPose> {
    let (a, b) = (centerline.first()?, centerline.get(1)?);
    let yaw = (b.y_m - a.y_m).atan2(b.x_m - a.x_m);
    yaw.is_finite().then_some(StartPose {
        x: a.x_m,
        y: a.y_m,
        yaw,
    })
}
