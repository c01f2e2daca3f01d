import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { securityHeaders } from './securityHeaders';

/** An HTML page response with the security headers of every page. */
export function htmlResponse(statusCode: number, body: string, extraHeaders: Record<string, string> = {}): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode,
    headers: { 'content-type': 'text/html; charset=utf-8', ...securityHeaders(), ...extraHeaders },
    body,
  };
}
