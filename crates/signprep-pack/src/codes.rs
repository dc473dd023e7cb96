//! Pack findings: stable codes, severities and locations.

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Serialize, Serializer};
use signprep_core::{Diagnostic, FileErrorCode, Severity, into_visible};
use std::borrow::Cow;
use std::fmt;

signprep_core::codes! {
    /// A stable code of a pack finding. The snake_case name never changes once
    /// released; [`PackCode::doc`] says what it means and why it matters.
    pub enum PackCode {
        /// A key the specification does not list for this object. It is probably a
        /// typo (`signatory_uid`); it is kept as it is and sent, and the service will
        /// most likely ignore it.
        UnknownKey => "unknown_key", Warning;
        /// A template child carries `apply_extracted_fields`. The specification warns
        /// that it may stop the document moving from `setup` to `awaiting_signatures`:
        /// the pack never goes out. Template fields are configured on the template.
        TemplateWithApplyExtractedFields => "template_with_apply_extracted_fields", Error;
        /// A child with `base_64_document` and no form-field flags lacks
        /// `extract_fields_by_tag: true`: a tag-syntax document without it extracts
        /// nothing, so the signers get a document without fields.
        SyntaxDocMissingExtractFlag => "syntax_doc_missing_extract_flag", Error;
        /// A form-field child (a `document_url`, or a form-field flag) lacks one of
        /// `extract_fields_from_form_fields_with_metadata: true` and
        /// `apply_extracted_fields: true`; both are required or the form's fields are
        /// not used.
        FormDocMissingFlags => "form_doc_missing_flags", Error;
        /// A child names no document: none of `create_from_template_key`,
        /// `base_64_document` and `document_url`.
        DocumentSourceMissing => "document_source_missing", Error;
        /// A child names more than one document (say a template key and a Base64
        /// file); which one the service uses is not specified.
        DocumentSourceAmbiguous => "document_source_ambiguous", Error;
        /// A creation flag that has no meaning for this kind of child (a tag-syntax
        /// flag on a template, `false` where the kind needs `true`). The typed model
        /// cannot hold it, so converting the body drops it.
        CreationFlagUnexpected => "creation_flag_unexpected", Warning;
        /// `base_64_document` is not valid standard Base64; the service cannot decode it.
        Base64Invalid => "base64_invalid", Error;
        /// `primary_communication_channel` is not one of `email`, `sms`, `whatsapp`.
        ChannelUnknown => "channel_unknown", Error;
        /// The pack has no `document_pack_name`; notifications and lists show it.
        PackNameMissing => "pack_name_missing", Error;
        /// The pack has no child document (a request plan, no request): there is
        /// nothing to sign.
        DocumentsMissing => "documents_missing", Error;
        /// The pack has no signatory. Nobody receives a signature request.
        SignersMissing => "signers_missing", Warning;
        /// A signatory `uuid` is not a UUID string; data fields cannot link to it.
        SignerUuidInvalid => "signer_uuid_invalid", Error;
        /// Two signatories share a `uuid`: the fields of one go to the other.
        SignerUuidDuplicate => "signer_uuid_duplicate", Error;
        /// Two signers share a local handle, so a field naming it is ambiguous.
        SignerHandleDuplicate => "signer_handle_duplicate", Error;
        /// A data field's `signatory_uuid` (or signer handle) links to no signatory of
        /// the pack; the service cannot assign the field.
        DataFieldSignerUnknown => "data_field_signer_unknown", Error;
        /// A data field has no `custom_id`, so it matches no field of the document.
        DataFieldCustomIdMissing => "data_field_custom_id_missing", Error;
        /// The same `custom_id` appears twice in one child; which value wins is not
        /// specified.
        DataFieldDuplicate => "data_field_duplicate", Warning;
        /// A data field has neither `data` nor a signer, so it changes nothing.
        DataFieldEmpty => "data_field_empty", Warning;
        /// A data field names a `custom_id` that the child's PDF does not have (no such
        /// tag in a tag-syntax child, no such field in a form-field child); the
        /// service silently ignores it. An error when the field carries `data` or a
        /// signer (the value, or who signs, is lost without a word); a warning when
        /// it has neither.
        CustomIdNotInDocument => "custom_id_not_in_document", Error;
        /// A pack-wide field (or a field pattern) matched no tag or form field of any
        /// document, so it is in no child.
        FieldUnused => "field_unused", Warning;
        /// A field pattern can only be expanded against a scanned PDF, and this child
        /// (a template or URL) or this output (populate syntax) has none.
        FieldPatternNeedsScan => "field_pattern_needs_scan", Error;
        /// A PDF has neither text tags nor form fields, so its kind (tag-syntax or
        /// form-field) cannot be detected and the service would extract nothing.
        /// Set the kind explicitly if this is intended.
        DocumentKindUnknown => "document_kind_unknown", Error;
        /// A PDF has both text tags and form fields; it is sent as a form-field child
        /// and its tags are ignored. Set the kind explicitly to choose.
        DocumentHasTagsAndFields => "document_has_tags_and_fields", Info;
        /// A tag-syntax child (or a v0 tag-extraction document) has no valid tag:
        /// the service creates no field.
        DocumentWithoutTags => "document_without_tags", Warning;
        /// A form-field child has no form field: the service creates no field.
        DocumentWithoutFormFields => "document_without_form_fields", Warning;
        /// `use_workspace_default_document_settings` is on but the pack has no
        /// `team_key`: the personal workspace is used, and its defaults overwrite the
        /// request's explicit values.
        WorkspaceDefaultsWithoutTeam => "workspace_defaults_without_team", Warning;
        /// Children disagree on `use_workspace_default_document_settings`. The
        /// specification says a child cannot opt out individually, so the per-child
        /// values will not all hold.
        WorkspaceDefaultsMixed => "workspace_defaults_mixed", Warning;
        /// The v0 tag-extraction flow uploads a PDF with tags; a template or URL
        /// child cannot be sent that way and is left out of the v0 output.
        V0NeedsPdf => "v0_needs_pdf", Warning;
        /// A setting has no place in this output (a v1-only setting in a v0 or
        /// populate body) and is left out.
        SettingDropped => "setting_dropped", Info;
        /// The populate syntax cannot assign a field to a signer; the assignment
        /// configured on the template is used.
        PopulateSignerIgnored => "populate_signer_ignored", Info;
        /// A document that is not the template being populated, or a pack-wide field
        /// (those apply to scanned PDFs), has no place in the populate body and is
        /// left out. Only the fields of the template's own document entry are used.
        PopulateIgnored => "populate_ignored", Info;
        /// A manifest document's path or glob matched no file.
        ManifestNoMatch => "manifest_no_match", Error;
        /// A PDF given with a manifest (a `pdf` part of the form `signprep serve`'s
        /// `/v1/check` and `/v1/pack` take) that no document's `path` names: it is
        /// in no pack. Most often a file name that differs from the manifest's path
        /// by a letter or a folder; the document meant to use it then has a
        /// `manifest_no_match` of its own.
        FormPartUnused => "form_part_unused", Warning;
        /// A manifest document's path matched its file only once both were put in
        /// the same Unicode normal form: the manifest writes `é` as one code point
        /// (NFC, as most editors do) and the file name has `e` and a combining
        /// accent (NFD, as macOS file systems and archives made there store it), or
        /// the other way round. The file is used; byte-exact tools (a shell's
        /// glob, a server on Linux) may not find it.
        ManifestPathNormalised => "manifest_path_normalised", Info;
        /// A glob (a manifest document path, a field pattern) is malformed.
        PatternInvalid => "pattern_invalid", Error;
        /// A manifest document gives none or more than one of `path`, `template`, `url`.
        ManifestDocumentSource => "manifest_document_source", Error;
        /// A manifest field gives none or both of `custom_id` and `match`.
        ManifestFieldId => "manifest_field_id", Error;
        /// A manifest `[tag_types]` rule is malformed (the type must be lower-case
        /// letters, digits and `_`, or `none`).
        ManifestTagTypeInvalid => "manifest_tag_type_invalid", Error;
        /// A key in the manifest's `[mail]` or `[signing]` table is not a setting the
        /// specification lists (manifests reject unknown keys).
        ManifestKeyUnknown => "manifest_key_unknown", Error;
        /// A signer whose channel is email (the default) has no `email`: the
        /// signature request has nowhere to go, and the pack cannot leave `setup`.
        SignerEmailMissing => "signer_email_missing", Error;
        /// An email address (of a signer, a CC recipient, a populate
        /// `signer_<n>_email` or `cc_<n>_email`) is not of the form `name@domain.tld`.
        /// The service cannot deliver to it.
        EmailInvalid => "email_invalid", Error;
        /// A mobile number is not in international format: `+` then the country's
        /// dialling code and the number, digits only (`+447700900123`). The
        /// specification warns that numbers without a country code may fail. A
        /// warning, raised to an error when the signer's channel is `sms` or
        /// `whatsapp` and the number is how the request is delivered.
        MobileNotInternational => "mobile_not_international", Warning;
        /// A signer's `primary_communication_channel` is `sms` or `whatsapp` but the
        /// signer has no `mobile_number`: the signature request cannot be delivered.
        ChannelNeedsMobile => "channel_needs_mobile", Error;
        /// A signer uses the `sms` or `whatsapp` channel. Both must be enabled on the
        /// account first; otherwise delivery fails. Reported once per body, at the
        /// first signer using such a channel.
        ChannelNeedsEnablement => "channel_needs_enablement", Info;
        /// A signer has no signature field assigned: no signature tag (an id with a
        /// `_`-separated word `SIG`, `SIGN` or `SIGNATURE`), signature form field or
        /// v0 data field of type `signature` names their `signatory_uuid`. They will be
        /// asked to sign but have nowhere to sign. Not reported when a child's fields
        /// cannot be known (a template or URL child).
        SignerWithoutSignatureField => "signer_without_signature_field", Warning;
        /// The pack has a template child but a signer has no `role`. Template
        /// signers are matched by the role configured on the template, so this
        /// signer is linked to none of the template's fields.
        RoleMissingForTemplate => "role_missing_for_template", Warning;
        /// A data field sets `data` on a signature field (a signature tag, a
        /// signature form field, a v0 field of type `signature`). A signature is
        /// made by the signer, not pre-filled; the value is ignored or misplaced.
        DataForSignatureField => "data_for_signature_field", Warning;
        /// A v0 data field's `background_colour` is not in `#` notation (`#RGB` or
        /// `#RRGGBB`); the service may ignore it or reject the field.
        BackgroundColourInvalid => "background_colour_invalid", Warning;
        /// A valid tag of a tag-syntax PDF (or of a v0 upload) is named by no data
        /// field: the service still creates the field, but with no value and no
        /// signer assigned. Often intended (a signer picks it up); worth knowing.
        TagWithoutDataField => "tag_without_data_field", Info;
        /// A body (or a PDF to upload) is larger than the configured limit
        /// (`signprep check --max-payload`, 10 MiB by default). The specification
        /// publishes no maximum; very large requests are slow and may be refused.
        PayloadLarge => "payload_large", Warning;
        /// `post_signing_url` is not an absolute `http://` or `https://` URL: the
        /// redirect after signing goes nowhere.
        PostSigningUrlInvalid => "post_signing_url_invalid", Error;
        /// `mail_settings.reply_email` is not a valid email address: replies to the
        /// notification mails are lost.
        ReplyEmailInvalid => "reply_email_invalid", Error;
        /// Two-factor authentication is on but a signer has neither a mobile number
        /// nor an email address: the one-time password has nowhere to go, so the
        /// signer cannot sign.
        TwoFactorWithoutContact => "two_factor_without_contact", Warning;
        /// A populate-syntax key is neither `signer_<n>_email`/`_name`,
        /// `cc_<n>_email`/`_name` nor the `custom_id` of a data field of the template
        /// (when the template's JSON is given with `--template`), or addresses a
        /// signer the template does not have. The service ignores it. Without the
        /// template, a key that looks like a signer or CC key but is malformed
        /// (`signer_01_email`, `signer_0_mail`) is reported as a warning.
        PopulateKeyUnknown => "populate_key_unknown", Error;
        /// The signer (or CC) indices of a populate body skip a number
        /// (`signer_0_...` and `signer_2_...` without `signer_1_...`). Indices are
        /// zero-based positions in the template, so a gap usually means a typo.
        PopulateIndexGap => "populate_index_gap", Warning;
        /// A populate-syntax body has no key at all (`pack --populate` of a
        /// manifest with no signers writes one): the copy is the template as it
        /// is, with no signer set and no field filled. The service accepts it
        /// (an empty body copies as-is), so this is a warning rather than an error,
        /// but never silence.
        PopulateBodyEmpty => "populate_body_empty", Warning;
        /// A v0 data field's `tag_id` names no tag of the PDF uploaded with it: in
        /// the tag-extraction flow the tag is the field's only position, so the
        /// field is not placed.
        V0TagNotInPdf => "v0_tag_not_in_pdf", Error;
        /// A v0 data field's `x`, `y`, `width` or `height` is not a number (`null`,
        /// a string), is negative, or (`width`, `height`) is zero: the service
        /// cannot place the field, or places it where nobody sees it. Such values
        /// passed silently before; a plan written by `signprep migrate` never has
        /// them.
        DataFieldPositionInvalid => "data_field_position_invalid", Error;
        /// A v0 data field's box leaves the page it names. `y` counts page-stacked
        /// pixels from the top of the first page (each page's band starts where
        /// the one above ends, as a scan's `y_offset`), so the page is the one
        /// whose band holds `y`: a `y` past the last page's foot, an `x` past the
        /// page's width, or a box running over the right edge or the foot is
        /// reported with that page's size. Checked when the PDF is at hand (a
        /// request plan's `upload`), in the pixels of a 72 dpi scan (what
        /// `signprep migrate` writes unless given another `--dpi`).
        DataFieldOffPage => "data_field_off_page", Error;
        /// Signature requests are sent (a v0 body with `status` `awaiting_signatures`,
        /// a `request_signatures` call, or `auto_request_signatures_when_ready`) but a
        /// signer has no email address. The move out of `setup` needs every
        /// signatory's email.
        RequestSignaturesWithoutEmail => "request_signatures_without_email", Error;
        /// A v0 signatory has no `email`, in a body (or a request plan's request)
        /// that does not ask for signatures yet. The specification's Signatory:
        /// `email` is "required before signature request"; the document cannot
        /// move from `setup` to `awaiting_signatures` until every signatory has
        /// one. A warning, since an update may set it later; when the same request
        /// asks for signatures (`status` `awaiting_signatures`, a
        /// `request_signatures` call, or `auto_request_signatures_when_ready`) the
        /// finding is `request_signatures_without_email`, an error, instead. Not
        /// raised for a template (`document_type: template`): its signatories get
        /// their addresses when it is copied.
        SignatoryEmailMissing => "signatory_email_missing", Warning;
        /// A v0 update body (it has a `key`, or is sent with PUT) carries data field
        /// values while the document is not in `setup`: its `status` is neither
        /// `setup` nor `awaiting_signatures`, or it is `awaiting_signatures` and a
        /// signatory has already been sent the request (`email_send_count` above 0,
        /// or a signatory status other than `setup`). Field values can only change in
        /// `setup`; the update is lost. Revert the document to `setup` first.
        UpdateFieldOutsideSetup => "update_field_outside_setup", Warning;
        /// A webhook's `callback` is not an `https://` URL; v1 webhooks must use
        /// HTTPS. For a v0 subscription, which the specification does not restrict,
        /// it is a warning.
        CallbackNotHttps => "callback_not_https", Error;
        /// A webhook or subscription `callback` points at this machine (`localhost`,
        /// `127.0.0.1`, `::1`, `0.0.0.0`): the service cannot reach it. Use the HTTPS
        /// address a tunnelling tool gives you.
        CallbackLocalhost => "callback_localhost", Error;
        /// A webhook or subscription body has no `entity_key`: the pack (v1) or
        /// document (v0) to subscribe to.
        EntityKeyMissing => "entity_key_missing", Error;
        /// A `client_secret` or `api_key` is inside a pack, document or populate
        /// body. Credentials stay on the server and are only sent to the access-token
        /// and user endpoints; a body is often logged, stored or shown to a browser.
        SecretInBody => "secret_in_body", Error;
        /// A body is not valid JSON, or a value has the wrong type (a string where
        /// the specification has a list, a number in a populate body); nothing else
        /// in it can be checked.
        BodyInvalid => "body_invalid", Error;
        /// An object of a JSON body (or of a JSON manifest) gives the same key twice
        /// (`"email"` and, further on, `"email"` again). JSON readers disagree on
        /// which one counts: signprep's parser keeps the last, many others the first,
        /// so a value checked here may not be the value the service reads. Every
        /// repeat is reported, at its pointer, with the line of both.
        JsonDuplicateKey => "json_duplicate_key", Error;
        /// A body or a manifest is not plain UTF-8: UTF-16 or UTF-32 (its byte order
        /// mark says which; PowerShell 5's `>` writes UTF-16), or UTF-8 after a byte
        /// order mark. signprep decodes it and checks the rest, but JSON sent to a
        /// service must be UTF-8 without a mark (RFC 8259, section 8.1), and TOML is
        /// UTF-8 only: sent or read as it is, it may be refused. Save it as UTF-8.
        /// (Text with the NUL bytes of UTF-16 but no mark is not guessed at: it is
        /// `body_invalid` or `manifest_invalid`, saying what it looks like.)
        TextEncoding => "text_encoding", Warning;
        /// `signprep check`: an input is none of what it checks (a PDF, a request
        /// body or plan, a manifest): a `Cargo.toml`, a `pyproject.toml`, a
        /// `package.json`, a `tsconfig.json`. A TOML file is a manifest only when
        /// its top-level keys are a manifest's (`name`, `signers`, `documents`,
        /// ...), a JSON file a body only when its keys are a body's; a JSON file
        /// that does not parse is judged as a body (`body_invalid`) unless it reads
        /// as JSON with comments. The input is skipped (its record says so) and the
        /// run goes on; name it with `--kind` to have it judged as one kind. A run in
        /// which nothing at all could be checked still fails ("nothing to check",
        /// exit status 2), so a gate pointed at the wrong folder does not pass.
        KindUnknown => "kind_unknown", Info;
        /// A manifest does not parse (TOML or JSON syntax, an unknown key, a wrong
        /// type); the message gives the line and column.
        ManifestInvalid => "manifest_invalid", Error;
        /// A webhook or subscription body has no `callback` URL, so callbacks have
        /// nowhere to go.
        CallbackMissing => "callback_missing", Error;
        /// A v0 data field's `tag_id` is not upper-case ASCII (`A-Z`, `0-9`, `_`);
        /// the service reads tag ids in upper case only, so it links to no tag.
        DataFieldTagIdInvalid => "data_field_tag_id_invalid", Error;
        /// A request of a `{"requests": [...]}` plan has a method and path that
        /// signprep does not know (it knows the v0 document create, update,
        /// `request_signatures` and template-copy calls); its body is not checked.
        RequestUnknown => "request_unknown", Info;
        /// `signprep migrate`: a vendor tag's field kind (initials, checkbox, radio,
        /// dropdown, attachment, stamp, a date filled at signing, ...) has no
        /// counterpart among the data-field types the specification shows
        /// (`signature`, `text`). The field is left out rather than guessed; place it
        /// by hand, or name your account's type with `--map-type KIND=TYPE`.
        MigrateTypeUnmapped => "migrate_type_unmapped", Warning;
        /// `signprep migrate`: a vendor tag is filled by the sender (Dropbox
        /// `sender`, an Adobe `sender` role) or is read-only (Adobe `!`). No
        /// signatory completes it in this service, so it is left out; pre-populate
        /// the value with the field's `data`, or write it into the PDF.
        MigrateFieldReadOnly => "migrate_field_read_only", Warning;
        /// `signprep migrate`: a vendor tag names no signer (a DocuSeal tag without
        /// `role=`, an Adobe tag without a role); the field is assigned to
        /// `signer1`, the first signer.
        MigrateSignerDefaulted => "migrate_signer_defaulted", Info;
        /// `signprep migrate`: a vendor signer (`signer2`, a role such as `Client`)
        /// has no email address in the signer map. It is still a signatory (with
        /// its fields), but the service needs every signatory's email before
        /// signature requests go out. Add `--signer KEY=EMAIL`.
        MigrateSignerUnmapped => "migrate_signer_unmapped", Warning;
        /// `signprep migrate`: a PDF gave no data field — no vendor tag of the
        /// dialects asked for was found, or every tag was left out. Nothing is
        /// written for it: a migration that silently produces an empty document
        /// would be lost among hundreds of templates.
        MigrateNoFields => "migrate_no_fields", Error;
        /// `signprep migrate`: the signer map (`--signer`, `--signers`) names a
        /// vendor signer that this PDF's tags do not have (`signer9` where the tags
        /// name signer1 and signer2, `Cleint` for `Client`). Most likely a typo:
        /// the person it names would sign nothing, and the signer meant would be
        /// left without an address. Nothing is written for the PDF; the hint names
        /// the closest signer the PDF has.
        MigrateSignerUnknown => "migrate_signer_unknown", Error;
    }
}

impl fmt::Display for PackCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The code of a [`Finding`]: a pack rule, a scan diagnostic of a child's
/// PDF, or the core's code of a PDF that cannot be read at all (the same
/// code `signprep scan` writes in that file's error record).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FindingCode {
    /// A pack rule.
    Pack(PackCode),
    /// A diagnostic of the scan of a child's PDF.
    Scan(signprep_core::Code),
    /// A PDF that cannot be read or scanned at all.
    File(FileErrorCode),
}

impl FindingCode {
    /// The stable snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            FindingCode::Pack(c) => c.as_str(),
            FindingCode::Scan(c) => c.as_str(),
            FindingCode::File(c) => c.as_str(),
        }
    }
}

impl fmt::Display for FindingCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for FindingCode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// One of the three code lists, as written (a string).
impl JsonSchema for FindingCode {
    fn schema_name() -> Cow<'static, str> {
        "FindingCode".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "Stable snake_case code (`signprep explain CODE`): a pack rule's, a scan finding's, or the code of a PDF that cannot be read.",
            "anyOf": [
                generator.subschema_for::<PackCode>(),
                generator.subschema_for::<signprep_core::Code>(),
                generator.subschema_for::<FileErrorCode>(),
            ],
        })
    }
}

/// One finding about a request body, a manifest or a child's PDF.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Finding {
    /// Severity (from the code).
    pub severity: Severity,
    /// Stable code.
    pub code: FindingCode,
    /// What is wrong, naming the value; invisible and control characters in
    /// it are written as `U+XXXX`.
    pub message: String,
    /// JSON pointer into the body (`/documents/1/data_fields/3/custom_id`), or
    /// into the manifest when `file` is the manifest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    /// The file concerned: a child's PDF, or the manifest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// 0-based page of the PDF.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<usize>,
    /// Tag id in the PDF.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    /// Form-field name in the PDF.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// What to do about it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// Where it stands in the template the PDF was converted from (a `.docx`
    /// or `.odt` input): the place its author fixes it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<signprep_core::SourcePlace>,
}

impl Finding {
    /// A finding with the code's severity.
    pub fn new(code: PackCode, message: impl Into<String>) -> Self {
        Finding::bare(code.severity(), FindingCode::Pack(code), message.into())
    }

    /// A finding with no place and no hint yet; invisible and control
    /// characters in `message` (a value it quotes) written as `U+XXXX`.
    fn bare(severity: Severity, code: FindingCode, message: String) -> Self {
        Finding {
            severity,
            code,
            message: into_visible(message),
            pointer: None,
            file: None,
            page: None,
            tag: None,
            field: None,
            hint: None,
            source: None,
        }
    }

    /// A PDF (`what` names it) that cannot be read or scanned, with the
    /// core's code for the condition: `pdf_unreadable` (not a PDF, damaged
    /// beyond repair), `pdf_encrypted`, `pdf_limit_exceeded`, `io_error`.
    pub fn unreadable(what: &str, e: &signprep_core::Error) -> Self {
        let not_pdf = matches!(
            e.kind(),
            signprep_core::ErrorKind::Unreadable {
                what: signprep_core::Unreadable::NotPdf | signprep_core::Unreadable::Empty,
                ..
            }
        );
        let message = match e.kind() {
            signprep_core::ErrorKind::Io(io) => {
                format!("cannot read {what}: {}", signprep_core::io_reason(io))
            }
            _ => format!("{what} cannot be scanned: {}", e.message()),
        };
        let f = Finding::file_error(e.file_code(), message);
        if not_pdf {
            f.hint("the service expects a PDF; convert the document first")
        } else {
            f
        }
    }

    /// A finding with one of the core's file error codes.
    pub fn file_error(code: FileErrorCode, message: impl Into<String>) -> Self {
        Finding::bare(code.severity(), FindingCode::File(code), message.into())
    }

    /// A scan diagnostic of a child's PDF, located at the child.
    pub fn from_scan(d: &Diagnostic, pointer: &str, file: &str) -> Self {
        Finding {
            severity: d.severity,
            code: FindingCode::Scan(d.code),
            message: d.message.clone(),
            pointer: Some(pointer.to_string()),
            file: Some(file.to_string()),
            page: d.page,
            tag: d.tag.clone(),
            field: d.field.clone(),
            hint: d.hint.clone(),
            source: d.source.clone(),
        }
    }

    /// At this JSON pointer.
    #[must_use]
    pub fn at(mut self, pointer: impl Into<String>) -> Self {
        self.pointer = Some(pointer.into());
        self
    }

    /// About this file.
    #[must_use]
    pub fn file(mut self, file: impl Into<String>) -> Self {
        self.file = Some(file.into());
        self
    }

    /// With a hint (its invisible characters made visible, as the message's).
    #[must_use]
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(into_visible(hint.into()));
        self
    }

    /// True for an error-level finding.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Finding {
    /// `error[code]: message (at /pointer in file)`; a finding of a template leads with
    /// its place there (`error[code]: body, paragraph 3 ("..."): message`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]: ", self.severity, self.code)?;
        if let Some(s) = &self.source {
            let place = s.to_string();
            if !self.message.starts_with(&place) {
                write!(f, "{place}: ")?;
            }
        }
        f.write_str(&self.message)?;
        match (&self.pointer, &self.file) {
            (Some(p), Some(file)) => write!(f, " (at {p} in {file})")?,
            (Some(p), None) => write!(f, " (at {p})")?,
            (None, Some(file)) => write!(f, " (in {file})")?,
            (None, None) => {}
        }
        Ok(())
    }
}

/// Where in a v1 pack body a finding lies: the child, and the data field of
/// that child ([`Finding::pack_place`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackPlace {
    /// 0-based index in `documents`.
    pub document: usize,
    /// 0-based index in that child's `data_fields`, when the finding is
    /// about one of them.
    pub data_field: Option<usize>,
}

impl Finding {
    /// Where a finding about a v1 pack body lies, read from its pointer
    /// (`/documents/N/...`, `/documents/N/data_fields/M/...`); `None` when it
    /// is not under one child (the pack's signers, say). In a request plan,
    /// request N's body is the place of document N
    /// (`/requests/N/body/data_fields/M/...`; `/requests/N/upload`).
    pub fn pack_place(&self) -> Option<PackPlace> {
        let mut tokens = self.pointer.as_deref()?.strip_prefix('/')?.split('/');
        let plan = match tokens.next()? {
            "documents" => false,
            "requests" => true,
            _ => return None,
        };
        let document = array_index(tokens.next()?)?;
        let mut next = tokens.next();
        if plan && next == Some("body") {
            next = tokens.next();
        }
        let data_field = match next {
            Some("data_fields") => tokens.next().and_then(array_index),
            _ => None,
        };
        Some(PackPlace {
            document,
            data_field,
        })
    }
}

/// An array index token of a JSON pointer: `0`, or digits without a leading 0.
fn array_index(token: &str) -> Option<usize> {
    let digits = !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit());
    if !digits || (token.len() > 1 && token.starts_with('0')) {
        return None;
    }
    token.parse().ok()
}

/// Appends a reference token to a JSON pointer, escaping `~` and `/` (RFC 6901).
pub fn pointer(base: &str, token: impl fmt::Display) -> String {
    let token = token.to_string().replace('~', "~0").replace('/', "~1");
    format!("{base}/{token}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_is_documented_snake_case_and_unique() {
        let mut seen = std::collections::BTreeSet::new();
        for &code in PackCode::ALL {
            let name = code.as_str();
            assert!(
                name.chars()
                    .all(|c| c.is_ascii_lowercase() || c == '_' || c.is_ascii_digit()),
                "{name} is not snake_case"
            );
            assert!(seen.insert(name), "{name} twice");
            assert!(code.doc().trim().len() > 20, "{name} has no documentation");
            assert_eq!(PackCode::from_name(name), Some(code));
            assert!(
                signprep_core::Code::from_name(name).is_none(),
                "{name} clashes with a scan code"
            );
            assert!(
                FileErrorCode::from_name(name).is_none(),
                "{name} clashes with a file error code"
            );
        }
    }

    #[test]
    fn pointers_escape() {
        assert_eq!(pointer("/a", "b/c~d"), "/a/b~1c~0d");
        assert_eq!(pointer("", 3), "/3");
    }
}
