//! The v0 objects: Document, Signatory, CC recipient, Data field.

use super::{Extra, UnknownKeys, report_extra};
use crate::Nullable;
use crate::codes::{Finding, pointer};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A v0 document: the create body, the update body and the record.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct V0Document {
    /// Document key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// `document` or `template`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document_type: Option<String>,
    /// Document status (`setup`, `awaiting_signatures`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// Name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document_name: Option<String>,
    /// File name.
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub filename: Nullable<String>,
    /// Custom message of the signature request mail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Mail subject.
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub subject: Nullable<String>,
    /// Account key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account_key: Option<String>,
    /// Team (workspace) of the document.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team_key: Option<String>,
    /// User key of the creator.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_by: Option<String>,
    /// Email of the creator.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_by_email: Option<String>,
    /// Viewer keys.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub viewers: Option<Vec<String>>,
    /// Ticks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date_created: Option<f64>,
    /// Ticks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date_updated: Option<f64>,
    /// Signers sign one after another.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sequential_signing: Option<bool>,
    /// Drawn signatures allowed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub can_use_drawn_signature: Option<bool>,
    /// Typed signatures allowed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub can_use_typed_signature: Option<bool>,
    /// Uploaded signatures allowed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub can_use_uploaded_signature: Option<bool>,
    /// Guides signers through required fields.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub use_signing_wizard: Option<bool>,
    /// One-time password to the mobile number, or the email without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub use_two_factor_authentication: Option<bool>,
    /// Fallback PDF conversion.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub use_fallback_pdf_conversion: Option<bool>,
    /// The creator does not get the final mail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude_created_by_from_final_mail: Option<bool>,
    /// Contact details are masked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub obfuscate_contact_info: Option<bool>,
    /// Redirect after signing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub post_signing_url: Option<String>,
    /// Stands in for the in-app `signing_page_url` query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_app_page_url: Option<String>,
    /// Branding theme.
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub account_branding_theme_key: Nullable<String>,
    /// PDF download URL with a temporary token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub serve_pdf_url: Option<String>,
    /// Media type of the upload.
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub original_blob_type: Nullable<String>,
    /// Internal use (string or array).
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub original_blob: Nullable<serde_json::Value>,
    /// Internal use (string or array).
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub final_blob: Nullable<serde_json::Value>,
    /// Internal use (string or array).
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub image_blobs: Nullable<serde_json::Value>,
    /// Internal use (string or array).
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub image_blob_serving_urls: Nullable<serde_json::Value>,
    /// CC recipients.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cc_recipients: Option<Vec<V0CcRecipient>>,
    /// Signatories.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signatories: Option<Vec<V0Signatory>>,
    /// Data fields.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_fields: Option<Vec<V0DataField>>,
    /// Supporting documents (element shape not published).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document_appendices: Option<Vec<serde_json::Value>>,
    /// Keys the specification does not list.
    #[serde(flatten)]
    #[schemars(skip)]
    pub extra: Extra,
}

/// A v0 signatory.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct V0Signatory {
    /// Generated by the caller when a document is built from scratch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uuid: Option<String>,
    /// Role defined on the template.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// Person who signs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Where the request goes; required before a signature request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Used with two-factor authentication.
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub mobile_number: Nullable<String>,
    /// Starts as `setup`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// Starts at 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email_send_count: Option<u64>,
    /// Internal use.
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub user_key: Nullable<String>,
    /// Ticks.
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub date_updated: Nullable<f64>,
    /// Keys the specification does not list.
    #[serde(flatten)]
    #[schemars(skip)]
    pub extra: Extra,
}

/// A v0 CC recipient.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct V0CcRecipient {
    /// Email address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Mobile number.
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub mobile_number: Nullable<String>,
    /// Internal use.
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub user_key: Nullable<String>,
    /// Keys the specification does not list.
    #[serde(flatten)]
    #[schemars(skip)]
    pub extra: Extra,
}

/// A v0 data field.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct V0DataField {
    /// Internal use; may be empty on input.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uuid: Option<String>,
    /// Identifier set when the document is designed.
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub custom_id: Nullable<String>,
    /// Links the field to a `<# TAG #>` of the uploaded PDF (upper-case ASCII).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag_id: Option<String>,
    /// Field type (`signature`, `text`, ...).
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Required.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
    /// The signatory who completes the field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signatory_uuid: Option<String>,
    /// The value: pre-populated, or the result after completion.
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub data: Nullable<String>,
    /// What the user should do.
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub description: Nullable<String>,
    /// Left, pixels from the left of page 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<f64>,
    /// Top, pixels from the top of page 0 (pages stacked).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y: Option<f64>,
    /// Stacking order.
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub z: Nullable<f64>,
    /// Width; overridden when fields are extracted from tags.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<f64>,
    /// Height; overridden when fields are extracted from tags.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<f64>,
    /// A date field fills itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto_assign_date: Option<bool>,
    /// Options of a choice field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options_as_csv: Option<String>,
    /// Signature/initial fields assigned with one click.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto_fill: Option<bool>,
    /// `#` colour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub background_colour: Option<String>,
    /// File name.
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub filename: Nullable<String>,
    /// Internal use.
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub blob: Nullable<String>,
    /// Ticks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date_updated: Option<f64>,
    /// Keys the specification does not list.
    #[serde(flatten)]
    #[schemars(skip)]
    pub extra: Extra,
}

/// Every top-level key of a v0 document the specification lists.
pub(crate) const V0_DOCUMENT_KEYS: &[&str] = &[
    "key",
    "document_type",
    "status",
    "document_name",
    "filename",
    "message",
    "subject",
    "account_key",
    "team_key",
    "created_by",
    "created_by_email",
    "viewers",
    "date_created",
    "date_updated",
    "sequential_signing",
    "can_use_drawn_signature",
    "can_use_typed_signature",
    "can_use_uploaded_signature",
    "use_signing_wizard",
    "use_two_factor_authentication",
    "use_fallback_pdf_conversion",
    "exclude_created_by_from_final_mail",
    "obfuscate_contact_info",
    "post_signing_url",
    "in_app_page_url",
    "account_branding_theme_key",
    "serve_pdf_url",
    "original_blob_type",
    "original_blob",
    "final_blob",
    "image_blobs",
    "image_blob_serving_urls",
    "cc_recipients",
    "signatories",
    "data_fields",
    "document_appendices",
];

impl UnknownKeys for V0Document {
    fn unknown_keys_at(&self, at: &str, out: &mut Vec<Finding>) {
        report_extra(&self.extra, at, "a v0 document", V0_DOCUMENT_KEYS, out);
        self.cc_recipients
            .unknown_keys_at(&pointer(at, "cc_recipients"), out);
        self.signatories
            .unknown_keys_at(&pointer(at, "signatories"), out);
        self.data_fields
            .unknown_keys_at(&pointer(at, "data_fields"), out);
    }
}

impl UnknownKeys for V0Signatory {
    fn unknown_keys_at(&self, at: &str, out: &mut Vec<Finding>) {
        const KEYS: &[&str] = &[
            "uuid",
            "role",
            "name",
            "email",
            "mobile_number",
            "status",
            "email_send_count",
            "user_key",
            "date_updated",
        ];
        report_extra(&self.extra, at, "a v0 signatory", KEYS, out);
    }
}

impl UnknownKeys for V0CcRecipient {
    fn unknown_keys_at(&self, at: &str, out: &mut Vec<Finding>) {
        const KEYS: &[&str] = &["email", "name", "mobile_number", "user_key"];
        report_extra(&self.extra, at, "a v0 CC recipient", KEYS, out);
    }
}

impl UnknownKeys for V0DataField {
    fn unknown_keys_at(&self, at: &str, out: &mut Vec<Finding>) {
        const KEYS: &[&str] = &[
            "uuid",
            "custom_id",
            "tag_id",
            "type",
            "required",
            "signatory_uuid",
            "data",
            "description",
            "x",
            "y",
            "z",
            "width",
            "height",
            "auto_assign_date",
            "options_as_csv",
            "auto_fill",
            "background_colour",
            "filename",
            "blob",
            "date_updated",
        ];
        report_extra(&self.extra, at, "a v0 data field", KEYS, out);
    }
}
