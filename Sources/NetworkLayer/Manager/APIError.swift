import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A failure as ``NetworkManager`` reports it: HTTP statuses sorted into the categories an app
/// handles differently, each keeping the status, the response and the server's message;
/// transport failures and cancellation kept apart from them.
///
/// ```swift
/// switch await manager.request(.popular(page: 1), as: MoviePage.self) {
/// case .success(let page): show(page)
/// case .failure(.authentication(let failure)): askForKey(failure.serverMessage)
/// case .failure(.rateLimited(let failure)): retry(after: failure.retryAfter?.delay() ?? 1)
/// case .failure(.cancelled): break
/// case .failure(let error): showAlert(error.localizedDescription)
/// }
/// ```
public enum APIError: Error, Sendable {
    /// 401 or 403: the credential is missing, wrong or not allowed.
    case authentication(HTTPFailure)
    /// 404: no such resource.
    case notFound(HTTPFailure)
    /// 408 or 504: the server or a gateway gave up waiting.
    case timeout(HTTPFailure)
    /// 429: too many requests; see ``HTTPFailure/retryAfter``.
    case rateLimited(HTTPFailure)
    /// Any other 4xx: the request was wrong.
    case clientError(HTTPFailure)
    /// 5xx: the server failed.
    case serverError(HTTPFailure)
    /// Any other status the endpoint does not accept (1xx, 3xx, 6xx and up).
    case unexpectedStatus(HTTPFailure)

    /// The transfer failed: offline, connection lost, host not found, Foundation's timeout.
    case transport(URLError)
    /// The request's deadline (``EndPointType/timeout``) passed.
    case deadlineExceeded(after: TimeInterval)
    /// The request was cancelled.
    case cancelled
    /// The body did not decode; the error (usually a `DecodingError`) and the response are kept.
    case decoding(any Error, Response)
    /// The endpoint could not be turned into a request; nothing was sent.
    case invalidRequest(RequestBuildingError)
    /// Anything else, such as an error thrown by a custom transport.
    case underlying(any Error)

    /// Sorts a router's error into its category, reading the server's message with `errorMessage`.
    public init(_ error: NetworkError, errorMessage: ErrorMessage = .none) {
        switch error {
        case .unacceptableStatusCode(let response):
            let failure = HTTPFailure(response: response, serverMessage: errorMessage.message(in: response.data))
            self = APIError(status: failure)
        case .transport(let error): self = .transport(error)
        case .timedOut(let seconds): self = .deadlineExceeded(after: seconds)
        case .cancelled: self = .cancelled
        case .decoding(let error, let response): self = .decoding(error, response)
        case .invalidRequest(let error): self = .invalidRequest(error)
        case .download(let error): self = .underlying(error)
        case .underlying(let error): self = .underlying(error)
        }
    }

    private init(status failure: HTTPFailure) {
        switch failure.statusCode {
        case 401, 403: self = .authentication(failure)
        case 404: self = .notFound(failure)
        case 408, 504: self = .timeout(failure)
        case 429: self = .rateLimited(failure)
        case 400..<500: self = .clientError(failure)
        case 500..<600: self = .serverError(failure)
        default: self = .unexpectedStatus(failure)
        }
    }

    /// The HTTP failure, for the status categories.
    public var httpFailure: HTTPFailure? {
        switch self {
        case .authentication(let failure), .notFound(let failure), .timeout(let failure),
            .rateLimited(let failure), .clientError(let failure), .serverError(let failure),
            .unexpectedStatus(let failure):
            return failure
        case .transport, .deadlineExceeded, .cancelled, .decoding, .invalidRequest, .underlying:
            return nil
        }
    }

    /// The response, when the server answered.
    public var response: Response? {
        if case .decoding(_, let response) = self { return response }
        return httpFailure?.response
    }

    /// The HTTP status code, when the server answered.
    public var statusCode: Int? { response?.statusCode }
}

extension APIError: LocalizedError {
    /// One sentence a user can read, with the server's own message where it sent one.
    public var errorDescription: String? {
        switch self {
        case .authentication(let failure):
            return "Not authorized (\(failure))."
        case .notFound(let failure):
            return "Not found (\(failure))."
        case .timeout(let failure):
            return "The server timed out (\(failure))."
        case .rateLimited(let failure):
            let wait = failure.retryAfter.map { " Retry after \(Int(exactly: $0.delay().rounded(.up)) ?? Int.max) s." } ?? ""
            return "Too many requests (\(failure)).\(wait)"
        case .clientError(let failure):
            return "The request was rejected (\(failure))."
        case .serverError(let failure):
            return "The server failed (\(failure))."
        case .unexpectedStatus(let failure):
            return "Unexpected response (\(failure))."
        case .transport(let error):
            return NetworkError.transport(error).errorDescription
        case .deadlineExceeded(let seconds):
            return NetworkError.timedOut(after: seconds).errorDescription
        case .cancelled:
            return NetworkError.cancelled.errorDescription
        case .decoding(let error, let response):
            return NetworkError.decoding(error, response).errorDescription
        case .invalidRequest(let error):
            return NetworkError.invalidRequest(error).errorDescription
        case .underlying(let error):
            return NetworkError.underlying(error).errorDescription
        }
    }
}
