import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A failure as ``NetworkManager`` reports it: an unacceptable HTTP status sorted into the
/// category an app handles differently, with the server's message; every other failure is the
/// ``NetworkError`` itself, under ``failed(_:)``.
///
/// It categorises a ``NetworkError``, it does not copy it: ``networkError`` gives back the
/// error with everything it carries, whatever the category.
///
/// ```swift
/// switch await manager.request(.popular(page: 1), as: MoviePage.self) {
/// case .success(let page): show(page)
/// case .failure(.authentication(let failure)): askForKey(failure.serverMessage)
/// case .failure(.rateLimited(let failure)): retry(after: failure.retryAfter?.delay() ?? 1)
/// case .failure(.failed(.cancelled)): break
/// case .failure(let error): showAlert(error.localizedDescription)
/// }
/// ```
public enum APIError: Error, Sendable {
    /// 401 or 403: the credential is missing, wrong or not allowed.
    case authentication(HTTPFailure)
    /// 404: no such resource.
    case notFound(HTTPFailure)
    /// 408 or 504: the server, or a gateway in front of it, gave up waiting. (The router's own
    /// deadline is ``NetworkError/timedOut(after:)``, under ``failed(_:)``.)
    case serverTimeout(HTTPFailure)
    /// 429: too many requests; see ``HTTPFailure/retryAfter``.
    case rateLimited(HTTPFailure)
    /// Any other 4xx: the request was wrong.
    case clientError(HTTPFailure)
    /// 5xx: the server failed.
    case serverError(HTTPFailure)
    /// Any other status the endpoint does not accept (1xx, 3xx, 6xx and up).
    case unexpectedStatus(HTTPFailure)
    /// Every failure without an unacceptable status: the transfer failed, the deadline passed,
    /// the request was cancelled, the body did not decode, the endpoint could not be built, a
    /// download could not be put in place, or a plugin or transport threw.
    case failed(NetworkError)

    /// Sorts a router's error into its category, reading the server's message with `errorMessage`.
    public init(_ error: NetworkError, errorMessage: ErrorMessage = .none) {
        guard case .unacceptableStatusCode(let response) = error else {
            self = .failed(error)
            return
        }
        let failure = HTTPFailure(response: response, serverMessage: errorMessage.message(in: response.data))
        switch failure.statusCode {
        case 401, 403: self = .authentication(failure)
        case 404: self = .notFound(failure)
        case 408, 504: self = .serverTimeout(failure)
        case 429: self = .rateLimited(failure)
        case 400..<500: self = .clientError(failure)
        case 500..<600: self = .serverError(failure)
        default: self = .unexpectedStatus(failure)
        }
    }

    /// The error this categorises, with its cause and response.
    public var networkError: NetworkError {
        switch self {
        case .authentication(let failure), .notFound(let failure), .serverTimeout(let failure),
            .rateLimited(let failure), .clientError(let failure), .serverError(let failure),
            .unexpectedStatus(let failure):
            return .unacceptableStatusCode(failure.response)
        case .failed(let error):
            return error
        }
    }

    /// The HTTP failure, for the status categories.
    public var httpFailure: HTTPFailure? {
        switch self {
        case .authentication(let failure), .notFound(let failure), .serverTimeout(let failure),
            .rateLimited(let failure), .clientError(let failure), .serverError(let failure),
            .unexpectedStatus(let failure):
            return failure
        case .failed:
            return nil
        }
    }

    /// The response, when the server answered (a status category, or a body that did not decode).
    public var response: Response? { httpFailure?.response ?? networkError.response }

    /// The HTTP status code, when the server answered.
    public var statusCode: Int? { response?.statusCode }

    /// Whether the request was cancelled.
    public var isCancelled: Bool {
        if case .failed(.cancelled) = self { return true }
        return false
    }
}

extension APIError: LocalizedError {
    /// One sentence a user can read, with the server's own message where it sent one.
    public var errorDescription: String? {
        switch self {
        case .authentication(let failure):
            return "Not authorized (\(failure))."
        case .notFound(let failure):
            return "Not found (\(failure))."
        case .serverTimeout(let failure):
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
        case .failed(let error):
            return error.errorDescription
        }
    }
}
