/** Status lines for the statuses keygate writes (uWS takes the whole line). */
const TEXT: Record<number, string> = {
  200: 'OK', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found',
  405: 'Method Not Allowed', 409: 'Conflict', 410: 'Gone', 412: 'Precondition Failed',
  413: 'Payload Too Large', 431: 'Request Header Fields Too Large', 500: 'Internal Server Error', 503: 'Service Unavailable',
};

export const statusLine = (status: number): string => `${status} ${TEXT[status] ?? 'Unknown'}`;
