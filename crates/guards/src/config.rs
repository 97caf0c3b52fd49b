//! `slopguard.toml`: per-guard switches, severities and thresholds.
//!
//! ```toml
//! [guards.symbol-preservation]
//! enabled = true          # run the guard (defaults per guard)
//! severity = "warn"       # "block" or "warn": overrides what the guard decides
//!
//! [guards.containment]
//! max_file_bytes = 2097152
//! ```
//!
//! A guard may be named by slug or by code (`[guards.G7]`). Unknown keys inside a guard's
//! table are reported when the guard reads its settings.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::{Severity, registry};

/// A severity forced by configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeverityOverride {
    Block,
    Warn,
}

impl From<SeverityOverride> for Severity {
    fn from(s: SeverityOverride) -> Severity {
        match s {
            SeverityOverride::Block => Severity::Block,
            SeverityOverride::Warn => Severity::Warn,
        }
    }
}

/// The switches every guard understands.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct GuardSettings {
    pub enabled: Option<bool>,
    pub severity: Option<SeverityOverride>,
}

/// Why a configuration could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Parse { path: PathBuf, message: String },
    #[error("{path}: unknown guard `{name}` (run `slopguard guards` for the list)")]
    UnknownGuard { path: PathBuf, name: String },
}

/// Paths no guard but containment judges by default: deliberately broken or foreign content
/// (test fixtures, snapshots, vendored code). Replace the list with `[paths] exclude = [...]`.
pub const DEFAULT_EXCLUDE: &[&str] = &[
    "**/testdata/**",
    "**/tests/data/**",
    "**/test/data/**",
    "**/fixtures/**",
    "**/__fixtures__/**",
    "**/test-fixtures/**",
    "**/test_fixtures/**",
    "**/__snapshots__/**",
    "**/snapshots/**",
    "**/vendor/**",
    "**/third_party/**",
    "**/node_modules/**",
    "**/dist/**",
    "**/*.min.js",
];

/// `[paths]`: which paths the guards judge.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PathSettings {
    /// Globs (`*` within a component, `**` across) of paths only containment judges.
    pub exclude: Vec<String>,
}

impl Default for PathSettings {
    fn default() -> Self {
        PathSettings {
            exclude: DEFAULT_EXCLUDE.iter().map(|s| s.to_string()).collect(),
        }
    }
}

#[derive(Debug, Default, Deserialize)]
struct RawConfig {
    #[serde(default)]
    guards: BTreeMap<String, toml::Table>,
    #[serde(default)]
    paths: Option<PathSettings>,
    #[serde(flatten)]
    _rest: BTreeMap<String, toml::Value>,
}

/// The loaded configuration: one table per guard, keyed by slug.
#[derive(Debug, Clone, Default)]
pub struct Config {
    guards: BTreeMap<String, toml::Table>,
    /// Which paths the guards judge.
    pub paths: PathSettings,
    /// The whole file, for sections other crates read (`[llm]`, `[hooks]`, ...).
    pub raw: toml::Table,
}

impl Config {
    /// Parses configuration text; `origin` names it in errors.
    pub fn parse(text: &str, origin: &Path) -> Result<Config, ConfigError> {
        let raw: toml::Table = toml::from_str(text).map_err(|e| ConfigError::Parse {
            path: origin.to_path_buf(),
            message: e.to_string(),
        })?;
        let parsed: RawConfig =
            toml::Value::Table(raw.clone())
                .try_into()
                .map_err(|e: toml::de::Error| ConfigError::Parse {
                    path: origin.to_path_buf(),
                    message: e.to_string(),
                })?;
        let mut guards = BTreeMap::new();
        for (name, table) in parsed.guards {
            let guard = crate::find_guard(&name).ok_or_else(|| ConfigError::UnknownGuard {
                path: origin.to_path_buf(),
                name: name.clone(),
            })?;
            // The switches every guard shares are checked here: a misspelt value
            // (`enabled = "yes"`, `severity = "loud"`) would otherwise fall back to the
            // defaults without a word.
            for (key, expected) in [
                ("enabled", "`true` or `false`"),
                ("severity", "\"block\" or \"warn\""),
            ] {
                if let Some(value) = table.get(key) {
                    let mut one = toml::Table::new();
                    one.insert(key.into(), value.clone());
                    if toml::Value::Table(one).try_into::<GuardSettings>().is_err() {
                        return Err(ConfigError::Parse {
                            path: origin.to_path_buf(),
                            message: format!(
                                "[guards.{name}] {key} = {value}: expected {expected}"
                            ),
                        });
                    }
                }
            }
            guards.insert(guard.info().slug.to_string(), table);
        }
        Ok(Config {
            guards,
            paths: parsed.paths.unwrap_or_default(),
            raw,
        })
    }

    /// Loads `path`.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Config::parse(&text, path)
    }

    /// `explicit` when given, else `<root>/slopguard.toml` when it exists, else defaults.
    pub fn discover(root: &Path, explicit: Option<&Path>) -> Result<Config, ConfigError> {
        match explicit {
            Some(p) => Config::load(p),
            None => {
                let p = root.join("slopguard.toml");
                if p.is_file() {
                    Config::load(&p)
                } else {
                    Ok(Config::default())
                }
            }
        }
    }

    /// The raw table of guard `slug`.
    pub fn table(&self, slug: &str) -> Option<&toml::Table> {
        self.guards.get(slug)
    }

    /// Deserializes guard `slug`'s settings (missing keys take `T`'s defaults; `enabled` and
    /// `severity` are ignored here). A malformed table yields the defaults.
    pub fn settings<T: serde::de::DeserializeOwned + Default>(&self, slug: &str) -> T {
        let Some(table) = self.guards.get(slug) else {
            return T::default();
        };
        let mut t = table.clone();
        t.remove("enabled");
        t.remove("severity");
        toml::Value::Table(t).try_into().unwrap_or_default()
    }

    /// The common switches of guard `slug`.
    pub fn common(&self, slug: &str) -> GuardSettings {
        self.guards
            .get(slug)
            .and_then(|t| {
                let mut c = toml::Table::new();
                for k in ["enabled", "severity"] {
                    if let Some(v) = t.get(k) {
                        c.insert(k.into(), v.clone());
                    }
                }
                toml::Value::Table(c).try_into().ok()
            })
            .unwrap_or_default()
    }

    /// Turns guard `slug` on or off (command-line `--enable` / `--disable`).
    pub fn set_enabled(&mut self, slug: &str, on: bool) {
        self.guards
            .entry(slug.to_string())
            .or_default()
            .insert("enabled".into(), toml::Value::Boolean(on));
    }

    /// Whether `path` is excluded from every guard but containment.
    pub fn excluded(&self, path: &str) -> bool {
        self.paths
            .exclude
            .iter()
            .any(|g| crate::guards::containment::glob_match(g, path))
    }

    /// Whether guard `slug` runs.
    pub fn enabled(&self, slug: &str) -> bool {
        let default = registry()
            .iter()
            .find(|g| g.info().slug == slug)
            .is_some_and(|g| g.info().default_enabled);
        self.common(slug).enabled.unwrap_or(default)
    }
}
