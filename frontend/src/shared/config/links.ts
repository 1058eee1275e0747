/**
 * Addresses outside this app, set at build time (VITE_* variables). Empty means "not configured":
 * the logo then links to the feed, and the marketplace entries are not shown.
 */
export const MARKETING_SITE_URL: string = import.meta.env.VITE_MARKETING_SITE_URL ?? '';
/** The creators' social-network group a creator is invited to join (spec §2); empty: no invitation. */
export const CREATOR_GROUP_URL: string = import.meta.env.VITE_CREATOR_GROUP_URL ?? '';
export const MARKETPLACE_URL: string = import.meta.env.VITE_MARKETPLACE_URL ?? '';

/** The version this bundle was built as (package.json), compared with the server's gui_version. */
export const APP_VERSION: string = __APP_VERSION__;

/** The help tool's privacy policy and terms of use (spec §2); empty: that entry is not shown. */
export const PRIVACY_POLICY_URL: string = import.meta.env.VITE_PRIVACY_POLICY_URL ?? '';
export const TERMS_URL: string = import.meta.env.VITE_TERMS_URL ?? '';
