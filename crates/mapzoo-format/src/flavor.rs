//! The two flavours of Race Stack files (DESIGN §2.3): ROS 1 (the MapZoo dataset's) and
//! ROS 2 (the Race Stack's maintained `ros2-humble` / `ros2-jazzy` branches).

/// Which Race Stack a set's files are written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Flavor {
    /// ROS 1: headers with `seq` and `stamp {secs, nsecs}`, plain sector files.
    #[default]
    Ros1,
    /// ROS 2: headers `stamp {sec, nanosec}` without `seq`, sector files wrapped in
    /// `<node>: ros__parameters:`.
    Ros2,
}

impl Flavor {
    /// The flavour's name as the command line and messages spell it (`ros1`, `ros2`).
    pub fn name(self) -> &'static str {
        match self {
            Flavor::Ros1 => "ros1",
            Flavor::Ros2 => "ros2",
        }
    }
}

impl std::fmt::Display for Flavor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Flavor {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "ros1" => Ok(Flavor::Ros1),
            "ros2" => Ok(Flavor::Ros2),
            other => Err(format!(
                "unknown flavour {other:?}: use ros1 (the MapZoo dataset, ROS 1 Race Stack) or ros2 (the ROS 2 Race Stack)"
            )),
        }
    }
}

impl crate::set::TrackFiles {
    /// The flavour of the set's Race Stack files as read: the JSON's, else the sector files'
    /// (`None` when the set has none of them: CSVs and maps have no flavour).
    pub fn flavor(&self) -> Option<Flavor> {
        self.global
            .as_ref()
            .map(|g| g.flavor())
            .or(self.speed_scaling.as_ref().map(|s| s.flavor))
            .or(self.ot_sectors.as_ref().map(|s| s.flavor))
    }

    /// Makes every flavoured file of the set (the JSON, both sector files) be written in
    /// `flavor`, and the set's record (`mapzoo.toml`) say so.
    pub fn set_flavor(&mut self, flavor: Flavor) {
        if let Some(g) = &mut self.global {
            g.set_flavor(flavor);
        }
        if let Some(s) = &mut self.speed_scaling {
            s.flavor = flavor;
        }
        if let Some(s) = &mut self.ot_sectors {
            s.flavor = flavor;
        }
        if let Some(r) = &mut self.record {
            r.flavor = flavor;
        }
    }
}

/// The flavour of one Race Stack file: a `global_waypoints.json` (its headers) or a sector
/// file (its `<node>: ros__parameters:` wrapping); `None` for any other file (CSVs, maps).
pub fn file_flavor(path: &std::path::Path) -> crate::Result<Option<Flavor>> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    if name.ends_with(".json") {
        return Ok(Some(crate::GlobalWaypoints::read(path)?.flavor()));
    }
    if name == crate::set::layout::SPEED_SCALING {
        return Ok(Some(crate::SpeedScaling::read(path)?.flavor));
    }
    if name == crate::set::layout::OT_SECTORS {
        return Ok(Some(crate::OtSectors::read(path)?.flavor));
    }
    Ok(None)
}
