//! Racing lines: reference spline, sparse IQP, shortest path, velocity
//! profile and lap time (DESIGN §3, stages 7–11).
