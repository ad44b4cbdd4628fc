export { LIBRARY_PAGE_DEFAULT, LIBRARY_PAGE_MAX, LibraryReadService, LibraryUnsupportedError, type LibraryKind, type LibraryPageView } from './library-read.service.ts';
