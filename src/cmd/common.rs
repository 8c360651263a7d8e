//! Options shared by the commands that run the pipeline, and batch output.

use std::io::IsTerminal;
use std::path::PathBuf;

use mapzoo_extract::{ExtractError, StartPose};
use mapzoo_format::{FreeRule, Hint};
use mapzoo_pipeline::{Config, Overrides, PipelineError, Profile};
use mapzoo_render::RenderError;

/// Configuration options: a profile, a TOML file and single-value overrides.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ConfigArgs {
    /// Parameter profile: mapzoo (safety widths 1.2/1.2 m, default) or racestack (0.7/0.7 m).
    #[arg(long)]
    pub profile: Option<Profile>,
    /// A TOML file in the layout of pipeline.toml; its keys override the profile's defaults.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Which pixels are free: map-server (YAML thresholds, default) or nonzero (Race Stack).
    #[arg(long, value_name = "RULE")]
    pub free_rule: Option<FreeRule>,
    /// Safety width of the IQP line (vehicle width + margin), metres.
    #[arg(long, value_name = "W")]
    pub safety_width: Option<f64>,
    /// Safety width of the SP line and its reference IQP, metres.
    #[arg(long, value_name = "W")]
    pub safety_width_sp: Option<f64>,
}

impl ConfigArgs {
    /// The validated configuration.
    pub fn resolve(&self) -> anyhow::Result<Config> {
        let overrides = Overrides {
            profile: self.profile,
            free_rule: self.free_rule,
            safety_width: self.safety_width,
            safety_width_sp: self.safety_width_sp,
        };
        Ok(Config::resolve(self.config.as_deref(), &overrides)?)
    }
}

/// Parses `x,y,yaw` (metres, metres, radians).
pub fn parse_start(text: &str) -> Result<StartPose, String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    if parts.len() != 3 {
        return Err(format!(
            "expected x,y,yaw (metres, metres, radians), found {text:?}"
        ));
    }
    let mut v = [0.0; 3];
    for (i, p) in parts.iter().enumerate() {
        v[i] = p
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
            .ok_or_else(|| format!("{p:?} in --start {text:?} is not a finite number"))?;
    }
    Ok(StartPose {
        x: v[0],
        y: v[1],
        yaw: v[2],
    })
}

/// Progress over a batch: a bar on a terminal, plain lines otherwise.
pub struct Progress {
    bar: Option<indicatif::ProgressBar>,
}

impl Progress {
    /// Progress over `n` items; silent when `quiet`.
    pub fn new(n: usize, quiet: bool) -> Self {
        let bar = (!quiet && n > 1 && std::io::stderr().is_terminal()).then(|| {
            let bar = indicatif::ProgressBar::new(n as u64);
            if let Ok(style) =
                indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {elapsed} {msg}")
            {
                bar.set_style(style);
            }
            bar
        });
        Progress { bar }
    }

    /// Reports one finished item.
    pub fn done(&self, line: &str) {
        match &self.bar {
            Some(bar) => {
                bar.println(line);
                bar.inc(1);
            }
            None => eprintln!("{line}"),
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The remedy a library error suggests, whatever library error type it is.
fn hint_of(err: &(dyn std::error::Error + 'static)) -> Option<Hint> {
    if let Some(e) = err.downcast_ref::<PipelineError>() {
        e.hint()
    } else if let Some(e) = err.downcast_ref::<ExtractError>() {
        e.hint()
    } else if let Some(e) = err.downcast_ref::<RenderError>() {
        e.hint()
    } else {
        None
    }
}

/// `text` with the library wording of each remedy that `err` or its causes carry
/// replaced by its command-line wording ([`Hint::flag`]).
pub fn flag_words(text: String, err: &(dyn std::error::Error + 'static)) -> String {
    let mut text = text;
    let mut cause = Some(err);
    while let Some(e) = cause {
        if let Some(h) = hint_of(e) {
            text = text.replace(&h.to_string(), &h.flag());
        }
        cause = e.source();
    }
    text
}

/// An error's message in command-line words: remedies name flags.
pub fn cli_message(err: &(dyn std::error::Error + 'static)) -> String {
    flag_words(err.to_string(), err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remedies_deep_in_a_chain_are_worded_as_flags() {
        let err = anyhow::Error::from(RenderError::TooLarge {
            width: 2,
            height: 2,
            limit: 1,
        })
        .context("drawing t");
        let text = format!("{err:#}");
        assert!(!text.contains("--"), "{text}");
        let worded = flag_words(text, err.as_ref());
        assert!(worded.ends_with("; use a smaller --size"), "{worded}");

        let exists = PipelineError::Exists(PathBuf::from("out/t"));
        assert_eq!(
            cli_message(&exists),
            "out/t: the output folder exists; pass --force to update it (files mapzoo did not write are kept)"
        );
    }
}
