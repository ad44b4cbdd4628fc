export { AppError, isAppError } from './app-error.ts';
export { ERROR_CATALOGUE, ERROR_CODES, type ErrorCode } from './error-catalogue.ts';
export { registerErrorHandling, sendProblem } from './error-handler.ts';
export { buildProblem, PROBLEM_CONTENT_TYPE, problemResponse, problemSchema, problemTypeUri, type Problem } from './problem.ts';
