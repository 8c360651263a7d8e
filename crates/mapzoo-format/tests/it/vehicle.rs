//! A car's Race Stack / TUM config folder read as it is.

use std::path::{Path, PathBuf};

use mapzoo_format::testdata::reference_data_or_skip;
use mapzoo_format::VehicleFiles;

#[test]
fn the_race_stack_car_folder_reads_as_its_files_say() {
    let Some(data) = reference_data_or_skip("race_stack_car_folder") else {
        return;
    };
    let v = VehicleFiles::read(&data.join("racestack")).unwrap();
    assert_eq!(
        v.files,
        [
            "racecar_f110.ini",
            "ggv.csv",
            "ax_max_machines.csv",
            "global_planner_params.yaml"
        ]
    );
    assert_eq!((v.safety_width, v.safety_width_sp), (Some(0.7), Some(0.7)));
    assert_eq!(v.v_max, Some(15.0));
    assert_eq!(v.mass, Some(3.518));
    assert_eq!(v.k_reg, Some(3));
    assert_eq!(v.iqp_iters_min, Some(5));
    assert_eq!(v.stepsize_interp_after_opt, Some(0.1));
    let ggv = v.ggv.unwrap();
    assert_eq!(ggv.len(), 18);
    assert!(ggv.iter().all(|r| r[1] == 12.0 && r[2] == 12.0));
    let ax = v.ax_max_machines.unwrap();
    assert_eq!(ax.len(), 61);
    assert_eq!(ax[0], [0.0, 9.10935576152022]);
}

fn write(dir: &Path, name: &str, text: &str) {
    let p = dir.join(name);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// TUM's own names and layout (racecar.ini, veh_dyn_info/), a ROS 2 planner file, and
/// missing values keep `None`.
#[test]
fn tum_layout_and_ros2_planner_params() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    write(
        d,
        "racecar.ini",
        "[GENERAL_OPTIONS]\nggv_file=\"my_ggv.csv\"\nveh_params = {\"v_max\": 9.5,\n    # comment\n    \"mass\": 4.0}\n",
    );
    write(
        d,
        "veh_dyn_info/my_ggv.csv",
        "# v_mps,ax_max_mps2,ay_max_mps2\n0.0,8.0,7.0\n20.0,8.0,7.0\n",
    );
    write(
        d,
        "global_planner_params.yaml",
        "global_planner:\n  ros__parameters:\n    safety_width: 0.8\n    safety_width_sp: 0.9\n",
    );
    let v = VehicleFiles::read(d).unwrap();
    assert_eq!(v.v_max, Some(9.5));
    assert_eq!(v.mass, Some(4.0));
    assert_eq!(v.width, None);
    assert_eq!(v.ggv.unwrap()[1], [20.0, 8.0, 7.0]);
    assert_eq!(v.ax_max_machines, None);
    assert_eq!((v.safety_width, v.safety_width_sp), (Some(0.8), Some(0.9)));
}

#[test]
fn bad_vehicle_files_name_the_file_and_the_value() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let e = VehicleFiles::read(d).unwrap_err().to_string();
    assert!(
        e.contains("racecar_f110.ini") && e.contains("ggv.csv"),
        "{e}"
    );
    write(
        d,
        "racecar_f110.ini",
        "[G]\nveh_params = {\"v_max\": \"fast\"}\n",
    );
    let e = VehicleFiles::read(d).unwrap_err().to_string();
    assert!(e.contains("racecar_f110.ini") && e.contains("v_max"), "{e}");
    write(
        d,
        "racecar_f110.ini",
        "[G]\nveh_params = {\"v_max\": 10.0}\n",
    );
    write(d, "ggv.csv", "0.0,12.0\n");
    let e = VehicleFiles::read(d).unwrap_err().to_string();
    assert!(
        e.contains("ggv.csv") && e.contains("line 1") && e.contains("3"),
        "{e}"
    );
    std::fs::remove_file(d.join("ggv.csv")).unwrap();
    write(d, "global_planner_params.yaml", "safety_width: wide\n");
    let e = VehicleFiles::read(d).unwrap_err().to_string();
    assert!(
        e.contains("global_planner_params.yaml") && e.contains("safety_width"),
        "{e}"
    );
    assert!(VehicleFiles::read(&d.join("nope"))
        .unwrap_err()
        .to_string()
        .contains("not a folder"));
}

/// The Race Stack's own layouts, built from the reference car files: ROS 1 keeps the INI and
/// `veh_dyn_info/` in `stack_master/config/gb_optimizer/` and the planner parameters one
/// folder up; ROS 2 keeps all of them in `stack_master/config/global_planner/`.
fn race_stack_layouts(data: &Path, root: &Path) -> (PathBuf, PathBuf) {
    let car = data.join("racestack");
    let copy = |from: &str, to: &Path| {
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(car.join(from), to).unwrap();
    };
    let ros1 = root.join("ros1/stack_master/config");
    copy(
        "global_planner_params.yaml",
        &ros1.join("global_planner_params.yaml"),
    );
    copy(
        "racecar_f110.ini",
        &ros1.join("gb_optimizer/racecar_f110.ini"),
    );
    for f in ["ggv.csv", "ax_max_machines.csv"] {
        copy(f, &ros1.join("gb_optimizer/veh_dyn_info").join(f));
    }
    let ros2 = root.join("ros2/stack_master/config");
    let gp = ros2.join("global_planner");
    copy("racecar_f110.ini", &gp.join("racecar_f110.ini"));
    for f in ["ggv.csv", "ax_max_machines.csv"] {
        copy(f, &gp.join("veh_dyn_info").join(f));
    }
    // ROS 2 wraps the same values in `<node>: ros__parameters:`
    let ros1_yaml = std::fs::read_to_string(car.join("global_planner_params.yaml")).unwrap();
    let mut ros2_yaml = String::from("global_planner:\n  ros__parameters:\n");
    for l in ros1_yaml.lines().filter(|l| !l.trim().is_empty()) {
        ros2_yaml.push_str(&format!("    {l}\n"));
    }
    write(&gp, "global_planner_params.yaml", &ros2_yaml);
    (ros1, ros2)
}

/// Before: `--vehicle .../gb_optimizer` gave no safety widths (they sat one folder up) and
/// `--vehicle .../config` gave no INI (it sat one folder down), without a word.
#[test]
fn every_race_stack_layout_gives_the_same_car_and_names_each_file() {
    let Some(data) = reference_data_or_skip("every_race_stack_layout") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (ros1, ros2) = race_stack_layouts(&data, tmp.path());
    let flat = VehicleFiles::read(&data.join("racestack")).unwrap();
    assert!(flat.notes.is_empty(), "{:?}", flat.notes);
    let real = |p: &Path| p.canonicalize().unwrap();
    for (dir, ini_dir, planner_dir) in [
        (ros1.clone(), ros1.join("gb_optimizer"), ros1.clone()),
        (
            ros1.join("gb_optimizer"),
            ros1.join("gb_optimizer"),
            ros1.clone(),
        ),
        (
            ros2.clone(),
            ros2.join("global_planner"),
            ros2.join("global_planner"),
        ),
        (
            ros2.join("global_planner"),
            ros2.join("global_planner"),
            ros2.join("global_planner"),
        ),
    ] {
        let v = VehicleFiles::read(&dir).unwrap();
        let what = dir.display().to_string();
        assert!(v.notes.is_empty(), "{what}: {:?}", v.notes);
        // value for value the flat folder's car
        assert_eq!(
            (v.safety_width, v.safety_width_sp),
            (Some(0.7), Some(0.7)),
            "{what}"
        );
        assert_eq!(v.ggv, flat.ggv, "{what}");
        assert_eq!(v.ax_max_machines, flat.ax_max_machines, "{what}");
        assert_eq!(
            (v.v_max, v.mass, v.k_reg),
            (flat.v_max, flat.mass, flat.k_reg)
        );
        // and each value names the file it came from
        let planner = real(&planner_dir).join("global_planner_params.yaml");
        assert_eq!(
            v.source_of("safety_width"),
            Some(planner.as_path()),
            "{what}"
        );
        assert_eq!(
            v.source_of("safety_width_sp"),
            Some(planner.as_path()),
            "{what}"
        );
        let ggv = real(&ini_dir).join("veh_dyn_info/ggv.csv");
        assert_eq!(v.source_of("ggv"), Some(ggv.as_path()), "{what}");
        let ini = real(&ini_dir).join("racecar_f110.ini");
        assert_eq!(v.source_of("v_max"), Some(ini.as_path()), "{what}");
        let lines = v.describe();
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&planner.display().to_string())
                    && l.contains("safety_width = 0.7")),
            "{what}: {lines:?}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&ggv.display().to_string()) && l.contains("18 rows")),
            "{what}: {lines:?}"
        );
    }
    // the ROS 1 INI folder names the planner file one folder up
    let v = VehicleFiles::read(&ros1.join("gb_optimizer")).unwrap();
    assert!(
        v.files
            .contains(&"../global_planner_params.yaml".to_string()),
        "{:?}",
        v.files
    );
}

/// A file the layout lacks is a note naming where it was looked for; the values it would give
/// stay unset (the configured ones are kept).
#[test]
fn a_missing_car_file_is_a_note() {
    let Some(data) = reference_data_or_skip("a_missing_car_file_is_a_note") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (ros1, _) = race_stack_layouts(&data, tmp.path());
    std::fs::remove_file(ros1.join("global_planner_params.yaml")).unwrap();
    std::fs::remove_file(ros1.join("gb_optimizer/veh_dyn_info/ax_max_machines.csv")).unwrap();
    let v = VehicleFiles::read(&ros1.join("gb_optimizer")).unwrap();
    assert_eq!((v.safety_width, v.safety_width_sp), (None, None));
    assert_eq!(v.ax_max_machines, None);
    assert!(v.ggv.is_some() && v.v_max.is_some());
    assert_eq!(v.notes.len(), 2, "{:?}", v.notes);
    assert!(
        v.notes[0].contains("ax_max_machines.csv") && v.notes[0].contains("machine limit"),
        "{:?}",
        v.notes
    );
    assert!(
        v.notes[1].contains("global_planner_params.yaml")
            && v.notes[1].contains("safety widths")
            && v.notes[1].contains(&ros1.canonicalize().unwrap().display().to_string()),
        "{:?}",
        v.notes
    );
}

/// Two files giving one parameter different values: an error naming both, whichever layout.
#[test]
fn contradicting_car_files_are_an_error_naming_both() {
    let Some(data) = reference_data_or_skip("contradicting_car_files") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (ros1, _) = race_stack_layouts(&data, tmp.path());
    let gb = ros1.join("gb_optimizer");
    // the same values twice agree
    std::fs::copy(
        ros1.join("global_planner_params.yaml"),
        gb.join("global_planner_params.yaml"),
    )
    .unwrap();
    let v = VehicleFiles::read(&ros1).unwrap();
    assert_eq!(v.safety_width, Some(0.7));
    // a second planner file with another width
    write(&gb, "global_planner_params.yaml", "safety_width: 0.6\n");
    let e = VehicleFiles::read(&ros1).unwrap_err().to_string();
    assert!(
        e.contains("safety_width")
            && e.contains("0.6")
            && e.contains("0.7")
            && e.matches("global_planner_params.yaml").count() == 2
            && e.contains("gb_optimizer/global_planner_params.yaml"),
        "{e}"
    );
    // the parent is looked into only for a file the folder lacks: the folder's own wins
    let v = VehicleFiles::read(&gb).unwrap();
    assert_eq!((v.safety_width, v.safety_width_sp), (Some(0.6), None));
    std::fs::remove_file(gb.join("global_planner_params.yaml")).unwrap();
    // a ggv beside the INI that differs from the one in veh_dyn_info/
    write(&gb, "ggv.csv", "0.0,9.0,9.0\n20.0,9.0,9.0\n");
    let e = VehicleFiles::read(&gb).unwrap_err().to_string();
    assert!(
        e.contains("ggv")
            && e.contains("gb_optimizer/ggv.csv")
            && e.contains("veh_dyn_info/ggv.csv"),
        "{e}"
    );
}
