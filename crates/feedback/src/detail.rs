//! The `detail` JSON of a feedback row: what each step of the loop found, kept on the item so
//! the next step (in another process, after a crash) reads it back.
//!
//! One key per step: `triage` and `localisation` (triage), `critic` and `plan_critique` (the
//! critic on the plan), `plan` (the fix plan), `refinements` (the plan's refinement rounds),
//! `fix` (the landed fix), `verification` (the verify run). The stored shape is the one these
//! keys have always had: rows written before this type existed read back, and the `show`
//! output and the tests read the same JSON. A key whose value does not parse as its type, and
//! any key this type does not know, is kept as it was stored and written back unchanged.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::fix::{FixPlan, LandedFix, Verification};
use super::localise::Localisation;
use super::refine::Round;
use super::triage::Triage;

/// The typed `detail` of a feedback row.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(from = "Value", into = "Value")]
pub struct Detail {
    /// The reviewer model's triage.
    pub triage: Option<Triage>,
    /// Where the feedback points in the repository.
    pub localisation: Option<Localisation>,
    /// Whether the critic ran on the fix and why (`on: ...`, `off (asked for)`).
    pub critic: Option<String>,
    /// The critic's review of the fix plan, as its trace data.
    pub plan_critique: Option<Value>,
    /// The fix plan (revised by each refinement round).
    pub plan: Option<FixPlan>,
    /// The plan's refinement rounds, oldest first.
    pub refinements: Option<Vec<Round>>,
    /// The landed fix.
    pub fix: Option<LandedFix>,
    /// The verdict of the last verification.
    pub verification: Option<Verification>,
    /// Keys this type does not know, and known keys whose stored value did not parse: kept as
    /// stored.
    rest: Map<String, Value>,
}

impl Detail {
    /// The detail a triage leaves: its verdict and the localisation, nothing else (a triaged
    /// item starts its fix from these alone).
    pub fn triaged(triage: Triage, localisation: Localisation) -> Detail {
        Detail {
            triage: Some(triage),
            localisation: Some(localisation),
            ..Detail::default()
        }
    }

    /// Reads a row's stored detail; never fails (see the module's doc for what is kept).
    pub fn from_value(value: &Value) -> Detail {
        Detail::from(value.clone())
    }

    /// The JSON stored on the row.
    pub fn to_value(&self) -> Value {
        Value::from(self.clone())
    }

    /// Why `key` has no typed value: the parser's error on what is stored there (`null` when
    /// nothing is), for the step that needed it to report.
    pub fn field_error<T: DeserializeOwned>(&self, key: &str) -> serde_json::Error {
        let stored = self.rest.get(key).cloned().unwrap_or(Value::Null);
        match serde_json::from_value::<T>(stored) {
            Err(e) => e,
            // Parsable after all (the field was set and cleared since): absent.
            Ok(_) => <serde_json::Error as serde::de::Error>::custom("absent"),
        }
    }
}

/// `value[key]` as a `T`, or the stored value left in `rest`.
fn take<T: DeserializeOwned>(rest: &mut Map<String, Value>, key: &str) -> Option<T> {
    let parsed = serde_json::from_value(rest.get(key)?.clone()).ok()?;
    rest.remove(key);
    Some(parsed)
}

impl From<Value> for Detail {
    fn from(value: Value) -> Detail {
        let mut rest = match value {
            Value::Object(map) => map,
            // A detail that is not an object holds nothing a step reads; the first step to
            // write one starts from an empty object.
            _ => Map::new(),
        };
        Detail {
            triage: take(&mut rest, "triage"),
            localisation: take(&mut rest, "localisation"),
            critic: take(&mut rest, "critic"),
            plan_critique: take(&mut rest, "plan_critique"),
            plan: take(&mut rest, "plan"),
            refinements: take(&mut rest, "refinements"),
            fix: take(&mut rest, "fix"),
            verification: take(&mut rest, "verification"),
            rest,
        }
    }
}

/// Puts `value` under `key` when it is set.
fn put<T: Serialize>(map: &mut Map<String, Value>, key: &str, value: &Option<T>) {
    if let Some(v) = value {
        // These types serialize to JSON without fail (no maps with non-string keys).
        map.insert(key.into(), serde_json::to_value(v).unwrap_or(Value::Null));
    }
}

impl From<Detail> for Value {
    fn from(d: Detail) -> Value {
        let mut map = d.rest;
        put(&mut map, "triage", &d.triage);
        put(&mut map, "localisation", &d.localisation);
        put(&mut map, "critic", &d.critic);
        put(&mut map, "plan_critique", &d.plan_critique);
        put(&mut map, "plan", &d.plan);
        put(&mut map, "refinements", &d.refinements);
        put(&mut map, "fix", &d.fix);
        put(&mut map, "verification", &d.verification);
        Value::Object(map)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn stored() -> Value {
        json!({
            "triage": {"class": "bug", "root_cause": "divides by n-1", "files": ["calc/stats.py"],
                       "confidence": 85, "escalated": false, "notes": []},
            "localisation": {"files": [{"path": "calc/stats.py", "score": 100, "lines": [3, 4],
                                        "why": ["named"]}], "dropped": []},
            "critic": "off (asked for)",
            "plan": {"root_cause": "r", "proposed_change": "c", "test_sketch": "t",
                     "files": ["calc/stats.py"], "test_file": "tests/test_stats.py",
                     "estimated_lines": 8},
            "fix": {"branch": "slopguard/fix/1", "commit": "abc", "test_files": ["t.py"],
                    "fails_without_fix": ["t.py::test_mean"], "pr_body": "/x/FIX-PR.md"},
            "later": {"kept": true}
        })
    }

    #[test]
    fn a_stored_detail_reads_into_its_fields_and_writes_back_unchanged() {
        let d = Detail::from_value(&stored());
        assert_eq!(d.triage.as_ref().map(|t| t.confidence), Some(85));
        assert_eq!(
            d.localisation.as_ref().map(|l| l.files[0].lines),
            Some(Some((3, 4)))
        );
        assert_eq!(d.critic.as_deref(), Some("off (asked for)"));
        assert_eq!(
            d.plan.as_ref().map(|p| p.test_file.as_str()),
            Some("tests/test_stats.py")
        );
        assert_eq!(
            d.fix.as_ref().map(|f| f.fails_without_fix.clone()),
            Some(vec!["t.py::test_mean".to_string()])
        );
        assert!(d.verification.is_none() && d.refinements.is_none());
        assert_eq!(
            d.to_value(),
            stored(),
            "the JSON shape is kept, byte for byte"
        );
    }

    #[test]
    fn a_malformed_field_reads_as_absent_and_is_written_back_as_stored() {
        let v = json!({"plan": {"root_cause": 3}, "triage": null});
        let d = Detail::from_value(&v);
        assert!(d.plan.is_none());
        assert!(d.triage.is_none());
        assert_eq!(d.to_value(), v);
        let e = d.field_error::<FixPlan>("plan");
        assert!(e.to_string().contains("invalid type: integer"), "{e}");
        // A missing key is reported as the parser reports `null`.
        let e = d.field_error::<LandedFix>("fix");
        assert!(e.to_string().contains("invalid type: null"), "{e}");
    }

    #[test]
    fn setting_a_field_replaces_a_malformed_stored_value() {
        let mut d = Detail::from_value(&json!({"critic": 7}));
        assert!(d.critic.is_none());
        d.critic = Some("on (asked for)".into());
        assert_eq!(d.to_value(), json!({"critic": "on (asked for)"}));
    }

    #[test]
    fn a_detail_that_is_not_an_object_becomes_an_empty_one() {
        let mut d = Detail::from_value(&json!("legacy"));
        assert_eq!(d.to_value(), json!({}));
        d.critic = Some("off (asked for)".into());
        assert_eq!(d.to_value(), json!({"critic": "off (asked for)"}));
    }

    #[test]
    fn the_triage_detail_holds_only_the_triage_and_the_localisation() {
        let old = Detail::from_value(&stored());
        let d = Detail::triaged(old.triage.clone().unwrap(), Localisation::default());
        let v = d.to_value();
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["localisation", "triage"]);
        assert_eq!(v["localisation"], json!({"files": [], "dropped": []}));
    }
}
