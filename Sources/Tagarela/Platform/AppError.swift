import HTTPServer

/// The errors a handler may throw; `App` maps them to a status and a page in one place.
enum AppError: Error, Equatable {
    /// Also "not yours": a record the user may not know about is answered as missing.
    case notFound
    /// Signed in and allowed to know the record, but not to do this.
    case forbidden
    case badRequest
    /// The record is in a state that forbids this (an answered meal cannot be edited).
    case conflict

    var status: Status {
        switch self {
        case .notFound: .notFound
        case .forbidden: .forbidden
        case .badRequest: .badRequest
        case .conflict: .conflict
        }
    }
}
