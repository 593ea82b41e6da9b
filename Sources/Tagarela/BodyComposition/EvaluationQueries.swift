import Foundation
import GRDB

/// The client as the trainer may see them, with what the equations need.
struct ClientProfile: Sendable {
    let patient: Patient
    let user: User
    var id: Int64 { patient.userId }
    var sex: BiologicalSex? { patient.sex.flatMap { BiologicalSex(rawValue: $0.rawValue) } }

    func age(on isoDate: String) -> Int? {
        patient.birthDate.flatMap { ISODate.age(birthDate: $0, today: isoDate) }
    }
}

/// What the trainer's pages read, each named after the question it answers. A client who is not the
/// trainer's, or an evaluation that is not the client's, is `AppError.notFound`, like a missing one.
enum EvaluationQueries {
    /// The client, if `trainer` may see them.
    static func client(_ id: Int64, of trainer: Actor, _ db: Database) throws -> ClientProfile {
        let person = try PeopleQueries.person(id, visibleTo: trainer, db)
        return ClientProfile(patient: person.patient, user: person.user)
    }

    /// The client's page: the profile, the days between evaluations and every evaluation, oldest first.
    /// With the measurements imported for the client from other systems' FHIR Bundles.
    static func clientHistory(_ id: Int64, of trainer: Actor, _ db: Database)
        throws -> (client: ClientProfile, reevaluationDays: Int, history: [EvaluationDetails], imported: [ImportedMeasurement]) {
        let client = try client(id, of: trainer, db)
        return (client, try Evaluations.interval(trainerId: trainer.userId, patientId: client.id, db),
                try EvaluationDetails.all(of: client.id, db), try FHIRMeasurements.all(of: client.id, db))
    }

    /// One evaluation of the client, with its measures.
    static func evaluation(_ evaluationId: Int64, of client: ClientProfile, _ db: Database) throws -> EvaluationDetails {
        guard let details = try EvaluationDetails.all(of: client.id, db).first(where: { $0.id == evaluationId }) else {
            throw AppError.notFound
        }
        return details
    }

    /// Two evaluations of the client named by their ids as the comparison form sends them (text from
    /// the query), older first.
    static func comparison(of client: ClientProfile, first: String?, second: String?, _ db: Database)
        throws -> (older: EvaluationDetails, newer: EvaluationDetails) {
        let history = try EvaluationDetails.all(of: client.id, db)
        guard let a = history.first(where: { "\($0.id)" == first }), let b = history.first(where: { "\($0.id)" == second })
        else { throw AppError.notFound }
        return a.evaluation.takenOn <= b.evaluation.takenOn ? (a, b) : (b, a)
    }
}
