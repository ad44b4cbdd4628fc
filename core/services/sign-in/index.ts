export { ACCOUNT_RULE, ADDRESS_RULE, delayFor, lockoutFor, SignInThrottle, type SignInAttempt, type SignInKind, type ThrottleDecision } from './sign-in-throttle.ts';
