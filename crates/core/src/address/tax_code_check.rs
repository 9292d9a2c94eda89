//! The tax code of a contact, checked by the tax-code module against the personal data it carries.

use super::*;

/// The tax code of the contact, checked by the tax-code module against the personal data.
pub(super) fn tax_code(register: &Register, input: &ContactInput, r: &mut ContactResult) {
    use crate::tax_code::{process, Action, BatchItem};
    let code = text(&input.tax_code);
    if code.is_empty() {
        return;
    }
    let item = BatchItem {
        tax_code: Some(code.to_string()),
        last_name: input.last_name.clone(),
        first_name: input.first_name.clone(),
        gender: input.gender.clone(),
        birth_date: input.birth_date.clone(),
        ..Default::default()
    };
    let personal = [
        &input.last_name,
        &input.first_name,
        &input.gender,
        &input.birth_date,
    ]
    .iter()
    .any(|f| !text(f).is_empty());
    let today = chrono::Utc::now().date_naive();
    let validated = process(register, Action::Validate, &item, today);
    let mut outcome: Vec<String> = validated.outcome.iter().map(|s| s.to_string()).collect();
    if personal && validated.ok {
        let compared = process(register, Action::Compare, &item, today);
        if compared.outcome.contains(&"MISMATCH") {
            outcome.insert(0, "TAX_CODE_MISMATCH".into());
        }
    }
    r.tax_code = validated.tax_code.or_else(|| Some(code.to_string()));
    r.tax_code_outcome = Some(outcome);
}
