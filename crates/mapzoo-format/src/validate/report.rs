//! The validation report: each check a typed pass / FAIL / skip with the file it
//! concerns and its reason ([`ValidationCheck`]), the whole report
//! ([`ValidationReport`]), and the sheet the checks are collected on.

use std::path::PathBuf;

use serde::Serialize;

use crate::set::Layout;

/// Outcome of one check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckStatus {
    /// The check holds.
    Pass,
    /// The check fails; `detail` says where and why.
    Fail,
    /// The check does not apply or could not run; `detail` says why.
    Skip,
}

/// One line of the checklist.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ValidationCheck {
    /// Pass, fail or skip.
    pub status: CheckStatus,
    /// The file checked, relative to the folder.
    pub file: String,
    /// What is checked, e.g. `resolution > 0`.
    pub check: String,
    /// The finding: a figure on pass, the cause and place on FAIL, the reason on skip.
    pub detail: String,
}

impl ValidationCheck {
    /// The text line `pass  f.yaml  resolution > 0: 0.05`.
    pub fn line(&self) -> String {
        let status = match self.status {
            CheckStatus::Pass => "pass",
            CheckStatus::Fail => "FAIL",
            CheckStatus::Skip => "skip",
        };
        format!("{status}  {}  {}: {}", self.file, self.check, self.detail)
    }
}

/// The checklist of one folder.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ValidationReport {
    /// The folder as given.
    pub dir: PathBuf,
    /// The layout it was checked as.
    pub layout: Layout,
    /// Whether every check passed or was skipped.
    pub ok: bool,
    /// The checks, in checklist order.
    pub checks: Vec<ValidationCheck>,
}

impl ValidationReport {
    /// The failed checks.
    pub fn failures(&self) -> impl Iterator<Item = &ValidationCheck> {
        self.checks.iter().filter(|c| c.status == CheckStatus::Fail)
    }
}

/// Collects checks as they are made.
pub(super) struct Sheet {
    pub(super) checks: Vec<ValidationCheck>,
}

impl Sheet {
    pub(super) fn add(
        &mut self,
        status: CheckStatus,
        file: &str,
        check: &str,
        detail: impl Into<String>,
    ) {
        self.checks.push(ValidationCheck {
            status,
            file: file.to_string(),
            check: check.to_string(),
            detail: detail.into(),
        });
    }
    pub(super) fn pass(&mut self, file: &str, check: &str, detail: impl Into<String>) {
        self.add(CheckStatus::Pass, file, check, detail);
    }
    pub(super) fn fail(&mut self, file: &str, check: &str, detail: impl Into<String>) {
        self.add(CheckStatus::Fail, file, check, detail);
    }
    pub(super) fn skip(&mut self, file: &str, check: &str, detail: impl Into<String>) {
        self.add(CheckStatus::Skip, file, check, detail);
    }
    /// Pass when `result` is Ok, else FAIL with its message.
    pub(super) fn result(
        &mut self,
        file: &str,
        check: &str,
        result: std::result::Result<String, String>,
    ) {
        match result {
            Ok(d) => self.pass(file, check, d),
            Err(d) => self.fail(file, check, d),
        }
    }
}
