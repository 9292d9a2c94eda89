//! The outcome list of an address: conditions first, then `MODIFIED` and the changed fields,
//! in the spec's order.

/// Changed fields, in the order they are listed after MODIFIED.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Change {
    Postcode,
    Province,
    City,
    CityForm,
    Street,
    StreetForm,
    Building,
}

impl Change {
    pub fn code(self) -> &'static str {
        match self {
            Change::Postcode => "POSTCODE",
            Change::Province => "PROVINCE",
            Change::City => "CITY",
            Change::CityForm => "CITY_FORM",
            Change::Street => "STREET",
            Change::StreetForm => "STREET_FORM",
            Change::Building => "BUILDING",
        }
    }
}

#[derive(Debug, Default)]
pub struct Outcome {
    conditions: Vec<&'static str>,
    changes: Vec<Change>,
}

impl Outcome {
    pub fn condition(&mut self, code: &'static str) {
        if !self.conditions.contains(&code) {
            self.conditions.push(code);
        }
    }

    pub fn change(&mut self, change: Change) {
        // a real change of a field supersedes a change of its form
        let superseded = match change {
            Change::City => Some(Change::CityForm),
            Change::Street => Some(Change::StreetForm),
            _ => None,
        };
        if let Some(s) = superseded {
            self.changes.retain(|c| *c != s);
        }
        let blocked = match change {
            Change::CityForm => self.changes.contains(&Change::City),
            Change::StreetForm => self.changes.contains(&Change::Street),
            _ => false,
        };
        if !blocked && !self.changes.contains(&change) {
            self.changes.push(change);
        }
    }

    pub fn has(&self, code: &str) -> bool {
        self.conditions.contains(&code)
    }

    pub fn codes(&self) -> Vec<String> {
        let mut out: Vec<String> = self.conditions.iter().map(|c| c.to_string()).collect();
        if !self.changes.is_empty() {
            let mut changes = self.changes.clone();
            changes.sort();
            out.push("MODIFIED".into());
            out.extend(changes.into_iter().map(|c| c.code().to_string()));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_first_then_changes_in_order() {
        let mut o = Outcome::default();
        o.change(Change::StreetForm);
        o.change(Change::Postcode);
        o.condition("POSTCODE_UNCONFIRMED");
        o.change(Change::Street);
        assert_eq!(
            o.codes(),
            vec!["POSTCODE_UNCONFIRMED", "MODIFIED", "POSTCODE", "STREET"]
        );
    }
}
