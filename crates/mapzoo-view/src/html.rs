//! The page: our style and script inlined around one JSON blob of tracks.

use std::path::Path;

use mapzoo_render::{viridis, TrackPicture, CROP_MARGIN_M};

use crate::data::track_json;
use crate::error::ViewError;

const STYLE: &str = include_str!("page/view.css");
const SCRIPT: &str = include_str!("page/view.js");

/// How a view is made.
#[derive(Debug, Clone, PartialEq)]
pub struct ViewOptions {
    /// Longest side of each embedded map image, pixels (a larger map is reduced by an
    /// integer factor, each image pixel the mean of its block).
    pub max_map_px: usize,
    /// Margin kept around the track when the map is cut to it, metres; `None` embeds the
    /// whole map.
    pub crop_margin_m: Option<f64>,
    /// The page title (the track names when empty).
    pub title: String,
}

impl Default for ViewOptions {
    fn default() -> Self {
        ViewOptions {
            max_map_px: 1600,
            crop_margin_m: Some(CROP_MARGIN_M),
            title: String::new(),
        }
    }
}

/// The palette of the speed colours (viridis, 64 steps), as CSS colours.
fn palette() -> String {
    let stops: Vec<String> = (0..64)
        .map(|i| {
            let [r, g, b] = viridis(i as f64 / 63.0);
            format!("\"#{r:02x}{g:02x}{b:02x}\"")
        })
        .collect();
    format!("[{}]", stops.join(","))
}

/// The tracks as the page's JSON `tracks` array, each cut to its track as `options` say.
pub(crate) fn tracks_json(
    tracks: &[TrackPicture],
    options: &ViewOptions,
) -> Result<Vec<String>, ViewError> {
    tracks
        .iter()
        .map(|t| match options.crop_margin_m {
            Some(m) => track_json(&t.cropped_to_track(m), options.max_map_px),
            None => track_json(t, options.max_map_px),
        })
        .collect()
}

/// The HTML page of `tracks` (a picker when there are several).
pub fn page(tracks: &[TrackPicture], options: &ViewOptions) -> Result<String, ViewError> {
    if tracks.is_empty() {
        return Err(ViewError::NoTracks);
    }
    let items = tracks_json(tracks, options)?;
    let title = if options.title.is_empty() {
        let names: Vec<&str> = tracks.iter().map(|t| t.name.as_str()).collect();
        names.join(", ")
    } else {
        options.title.clone()
    };
    Ok(assemble(&title, &format!("[{}]", items.join(",")), "null"))
}

/// The page around a `tracks` JSON array and a `compare` JSON value (`null` for none).
pub(crate) fn assemble(title: &str, tracks: &str, compare: &str) -> String {
    let data = format!(
        "{{\"version\":{},\"palette\":{},\"tracks\":{tracks},\"compare\":{compare}}}",
        crate::data::string(env!("CARGO_PKG_VERSION")),
        palette()
    );
    // inside <script>, "</" would end the element: JSON allows "<" as \u003c
    let data = data.replace('<', "\\u003c");
    let title = title
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>mapzoo view: {title}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n\
         <script type=\"application/json\" id=\"mz-data\">{data}</script>\n\
         <script>\n{SCRIPT}</script>\n</body></html>\n"
    )
}

/// Writes the page at `path` atomically; `path` must end in `.html` or `.htm`.
pub fn save_html(html: &str, path: &Path) -> Result<(), ViewError> {
    check_html_path(path)?;
    mapzoo_format::write_file_atomic(path, html.as_bytes()).map_err(|e| ViewError::Write {
        path: path.to_path_buf(),
        reason: match e {
            mapzoo_format::FormatError::Io { source, .. } => source.to_string(),
            other => other.to_string(),
        },
    })
}

/// Checks that `path` names an HTML file (`.html` or `.htm`, any case).
pub fn check_html_path(path: &Path) -> Result<(), ViewError> {
    let extension = path.extension().map(|e| e.to_string_lossy().into_owned());
    if extension
        .as_deref()
        .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"))
    {
        return Ok(());
    }
    Err(ViewError::NotHtml {
        path: path.to_path_buf(),
        extension,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_track_name_cannot_end_the_script_or_inject_markup() {
        let html = assemble("a<b>&c", "[{\"name\":\"x</script><b>\"}]", "null");
        assert_eq!(
            html.matches("</script>").count(),
            2,
            "only our two scripts end"
        );
        assert!(html.contains("<title>mapzoo view: a&lt;b&gt;&amp;c</title>"));
        let start = html.find("id=\"mz-data\">").unwrap() + "id=\"mz-data\">".len();
        let end = start + html[start..].find("</script>").unwrap();
        let data: serde_json::Value = serde_json::from_str(&html[start..end]).unwrap();
        assert_eq!(data["tracks"][0]["name"], "x</script><b>");
    }

    #[test]
    fn only_html_names_are_accepted() {
        assert!(check_html_path(Path::new("a/b.HTML")).is_ok());
        assert!(check_html_path(Path::new("b.htm")).is_ok());
        let e = check_html_path(Path::new("b.png")).unwrap_err().to_string();
        assert!(
            e.contains("b.png") && e.contains(".html") && e.contains("(found .png)"),
            "{e}"
        );
    }
}
