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
