/** A file from a multipart body, written to a temporary file that lives as long as the request. */
export interface UploadedFile {
  filename: string;
  type: string;
  size: number;
  /** The temporary file; move or copy it to keep it. */
  path: string;
}
