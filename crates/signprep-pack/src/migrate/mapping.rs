//! Vendor field kinds → this service's data-field `type`.
//!
//! The specification shows two values of a data field's `type`, `signature`
//! and `text`, and says the full list is "not shown". A vendor kind maps to
//! one of them only where the field does the same job; every other kind is
//! reported (`migrate_type_unmapped`) and left out rather than guessed. The
//! rows are the table in the README and in `signprep migrate --help`.

/// One row of the mapping: a vendor kind (the common vocabulary of
/// [`signprep_core::VendorAttributes::kind`]), the service type it becomes
/// (`None`: no counterpart, reported and left out) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypeRow {
    /// The vendor kind.
    pub kind: &'static str,
    /// The service's `type`, or `None` when the service shows no counterpart.
    pub service: Option<&'static str>,
    /// Why.
    pub reason: &'static str,
}

const fn row(kind: &'static str, service: Option<&'static str>, reason: &'static str) -> TypeRow {
    TypeRow {
        kind,
        service,
        reason,
    }
}

/// The mapping, in the order the documentation lists it.
pub const TYPE_TABLE: &[TypeRow] = &[
    row(
        "signature",
        Some("signature"),
        "the service's own type (Adobe optsignature keeps required = false)",
    ),
    row("text", Some("text"), "the service's own type"),
    row(
        "name",
        Some("text"),
        "the signer types their name; no name type or auto-fill is shown",
    ),
    row(
        "email",
        Some("text"),
        "typed as text; no email type is shown, so the address is not validated",
    ),
    row("company", Some("text"), "typed as text"),
    row("title", Some("text"), "typed as text"),
    row(
        "phone",
        Some("text"),
        "typed as text; no phone type is shown, so the number is not validated",
    ),
    row(
        "number",
        Some("text"),
        "typed as text; no number type is shown, so limits and number formats are not enforced",
    ),
    row(
        "date",
        Some("text"),
        "a date the signer types: free text (no date type is shown); a vendor date format goes into the description",
    ),
    row(
        "initials",
        None,
        "the spec mentions initial fields (auto_fill) but shows no type value for them; a signature field would ask for a full signature",
    ),
    row(
        "date_signed",
        None,
        "filled with the signing date: `auto_assign_date` exists, but the type of a date field is not shown",
    ),
    row(
        "number",
        Some("text"),
        "typed as text; no number type is shown, so the value is not validated",
    ),
    row("checkbox", None, "no checkbox type is shown"),
    row(
        "radio",
        None,
        "a choice field: `options_as_csv` exists, but the choice type's name is not shown",
    ),
    row(
        "dropdown",
        None,
        "a choice field: `options_as_csv` exists, but the choice type's name is not shown",
    ),
    row(
        "multiple",
        None,
        "a multiple-choice field: no type is shown",
    ),
    row(
        "file",
        None,
        "an attachment: no field type is shown (document_appendices are documents, not fields)",
    ),
    row("image", None, "no image type is shown"),
    row("stamp", None, "no stamp type is shown"),
    row("payment", None, "no payment type is shown"),
    row(
        "button",
        None,
        "an approve or decline button (DocuSign): no counterpart is shown",
    ),
    row(
        "unknown",
        None,
        "the vendor's own type is unknown (see vendor_tag_unknown_type)",
    ),
];

/// Kinds whose `options` become `options_as_csv` when mapped (`--map-type`).
pub(crate) const CHOICE_KINDS: &[&str] = &["radio", "dropdown", "multiple"];

/// The row of a kind (`unknown`'s row for a kind not in the table).
pub fn type_row(kind: &str) -> TypeRow {
    TYPE_TABLE
        .iter()
        .copied()
        .find(|r| r.kind == kind)
        .unwrap_or(row("unknown", None, "not a kind signprep knows"))
}

/// The table as plain text, one row a line (for `--help`).
pub fn type_table_text() -> String {
    let mut out = String::new();
    for r in TYPE_TABLE {
        out.push_str(&format!(
            "  {:<12} -> {:<10} {}\n",
            r.kind,
            r.service.unwrap_or("(left out)"),
            r.reason
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_types_the_spec_shows_are_produced() {
        for r in TYPE_TABLE {
            assert!(
                matches!(r.service, None | Some("signature") | Some("text")),
                "{} maps to {:?}",
                r.kind,
                r.service
            );
        }
        assert_eq!(type_row("initials").service, None);
        assert_eq!(type_row("no_such_kind").service, None);
    }
}
