export { decideClaims, type ClaimDecision, type ClaimPolicy } from './oidc-claims.ts';
export { OidcSignIn, OidcSignInError, type AttemptSealer, type OidcSignInErrorCode, type OidcSignInOptions, type SealedIdToken, type SignedIn, type User } from './oidc-sign-in.service.ts';
