export interface HostExampleOptions {
  port?: number;
  host?: string;
  webUrl: string;
  privateKeyPem: string;
  audience: string;
  issuer: string;
  subject?: string;
  email?: string;
}

export function startHostExample(
  options: HostExampleOptions,
): Promise<{ url: string; close(): Promise<void> }>;
