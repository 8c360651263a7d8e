//! A car's Race Stack / TUM config folder read as it is.

use std::path::Path;

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
