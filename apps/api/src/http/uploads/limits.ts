import { MAX_ZIP_ENTRIES } from './zip';

/** A multipart upload may carry several ZIPs of up to 50 MB each. */
export const MAX_UPLOAD_BYTES = 120 * 1024 * 1024;
/** Per request: files (ZIP entries counted one by one; as many as one ZIP may hold) and the bytes they inflate to. */
export const MAX_UPLOAD_FILES = MAX_ZIP_ENTRIES;
export const MAX_UPLOAD_INFLATED_BYTES = 100 * 1024 * 1024;
