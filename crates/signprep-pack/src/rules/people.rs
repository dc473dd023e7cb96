//! Signers and CC recipients, whatever body they come from.

use super::values::{email_ok, mobile_hint, mobile_ok, uuid_ok};
use crate::codes::{Finding, PackCode, pointer};
use crate::model::pack::Channel;
use signprep_core::Severity;
use std::collections::BTreeSet;

/// The keys a body uses for a person's attributes (they differ between a pack,
/// a v0 document and a manifest).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Keys {
    pub(crate) email: &'static str,
    pub(crate) mobile: &'static str,
    pub(crate) channel: &'static str,
}

impl Keys {
    pub(crate) const BODY: Keys = Keys {
        email: "email",
        mobile: "mobile_number",
        channel: "primary_communication_channel",
    };
    pub(crate) const MANIFEST: Keys = Keys {
        email: "email",
        mobile: "mobile_number",
        channel: "channel",
    };
}

/// A signer or CC recipient as read from a body.
#[derive(Debug)]
pub(crate) struct Person<'a> {
    /// JSON pointer of the object.
    pub(crate) at: String,
    /// How messages name them: `signer Ann Client`, `CC recipient 2`.
    pub(crate) label: String,
    pub(crate) signer: bool,
    pub(crate) email: Option<&'a str>,
    pub(crate) mobile: Option<&'a str>,
    pub(crate) channel: Option<&'a Channel>,
    pub(crate) role: Option<&'a str>,
    pub(crate) uuid: Option<&'a str>,
    pub(crate) keys: Keys,
}

impl<'a> Person<'a> {
    /// A person at `at`, named by `name`, `email` or their position.
    pub(crate) fn new(
        at: String,
        signer: bool,
        index: usize,
        name: Option<&str>,
        email: Option<&'a str>,
    ) -> Self {
        let what = if signer { "signer" } else { "CC recipient" };
        let label = match name.filter(|n| !n.trim().is_empty()).or(email) {
            Some(n) => format!("{what} `{n}`"),
            None => format!("{what} {index}"),
        };
        Person {
            at,
            label,
            signer,
            email,
            mobile: None,
            channel: None,
            role: None,
            uuid: None,
            keys: Keys::BODY,
        }
    }
}

/// Which rules apply.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Policy {
    /// Signers on the email channel need an email (v1 packs and manifests).
    pub(crate) email_required: bool,
    /// Two-factor authentication is on.
    pub(crate) two_factor: bool,
    /// A child is copied from a template, so signers need a role.
    pub(crate) has_template: bool,
    /// UUIDs are checked here (the builder checks them for manifests).
    pub(crate) check_uuids: bool,
}

/// Every rule about people.
pub(crate) fn check(people: &[Person<'_>], policy: Policy, out: &mut Vec<Finding>) {
    let mut uuids = BTreeSet::new();
    let mut enablement_reported = false;
    for p in people {
        let channel_needs_mobile = matches!(p.channel, Some(Channel::Sms | Channel::Whatsapp));
        if let Some(e) = p.email {
            if !email_ok(e) {
                out.push(
                    Finding::new(
                        PackCode::EmailInvalid,
                        format!("{}: `{e}` is not a valid email address", p.label),
                    )
                    .at(pointer(&p.at, p.keys.email))
                    .hint("write it as name@domain.tld, with no spaces or display name"),
                );
            }
        } else if p.signer
            && policy.email_required
            && matches!(p.channel, None | Some(Channel::Email))
        {
            out.push(
                Finding::new(
                    PackCode::SignerEmailMissing,
                    format!(
                        "{} has no email address, and email is their channel",
                        p.label
                    ),
                )
                .at(p.at.clone())
                .hint("add `email`, or set a `sms`/`whatsapp` channel with a mobile number"),
            );
        }
        if let Some(m) = p.mobile
            && !mobile_ok(m)
        {
            let mut f = Finding::new(
                PackCode::MobileNotInternational,
                format!(
                    "{}: mobile number `{m}` is not in international format",
                    p.label
                ),
            )
            .at(pointer(&p.at, p.keys.mobile))
            .hint(mobile_hint(m));
            if channel_needs_mobile {
                f.severity = Severity::Error;
                f.message
                    .push_str("; it is how their signature request is delivered");
            }
            out.push(f);
        }
        if let Some(c) = p.channel.filter(|_| channel_needs_mobile) {
            if p.mobile.is_none_or(|m| m.trim().is_empty()) {
                out.push(
                    Finding::new(
                        PackCode::ChannelNeedsMobile,
                        format!(
                            "{}'s channel is `{}` but they have no mobile number",
                            p.label,
                            c.as_str()
                        ),
                    )
                    .at(pointer(&p.at, p.keys.channel))
                    .hint("add `mobile_number` (`+` and digits), or use the email channel"),
                );
            }
            if !enablement_reported {
                enablement_reported = true;
                out.push(
                    Finding::new(
                        PackCode::ChannelNeedsEnablement,
                        format!(
                            "{} is reached by `{}`, which must be enabled on the account",
                            p.label,
                            c.as_str()
                        ),
                    )
                    .at(pointer(&p.at, p.keys.channel)),
                );
            }
        }
        if p.signer
            && policy.two_factor
            && p.mobile.is_none_or(|m| m.trim().is_empty())
            && p.email.is_none_or(|e| e.trim().is_empty())
        {
            out.push(
                Finding::new(
                    PackCode::TwoFactorWithoutContact,
                    format!(
                        "two-factor authentication is on but {} has neither a mobile number nor an email address for the one-time password",
                        p.label
                    ),
                )
                .at(p.at.clone()),
            );
        }
        if p.signer && policy.has_template && p.role.is_none_or(|r| r.trim().is_empty()) {
            out.push(
                Finding::new(
                    PackCode::RoleMissingForTemplate,
                    format!(
                        "{} has no role, but a child is copied from a template, whose signers are matched by role",
                        p.label
                    ),
                )
                .at(p.at.clone())
                .hint("set `role` to the role configured on the template"),
            );
        }
        if p.signer
            && policy.check_uuids
            && let Some(u) = p.uuid
        {
            if !uuid_ok(u) {
                out.push(
                    Finding::new(
                        PackCode::SignerUuidInvalid,
                        format!("{}: `{u}` is not a UUID", p.label),
                    )
                    .at(pointer(&p.at, "uuid"))
                    .hint(
                        "use a UUID such as 3f1c2a9e-5b7d-4c1e-8a2f-6d9b0e4c7a11, or leave it out",
                    ),
                );
            }
            if !uuids.insert(u) {
                out.push(
                    Finding::new(
                        PackCode::SignerUuidDuplicate,
                        format!("{}: uuid `{u}` is used by an earlier signer too", p.label),
                    )
                    .at(pointer(&p.at, "uuid")),
                );
            }
        }
    }
}
