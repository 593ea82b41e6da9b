import Foundation
import GRDB
import HTTPServer

/// Therapy goals: the patient's clinicians set them (each the kinds of their specialties), tutors follow
/// them and add notes, the patient sees their own in plain words.
enum GoalRoutes: Feature {
    static let templates = ["goals/list", "goals/kinds", "goals/form", "goals/show", "goals/mine"]

    static func add(to router: inout Router<Route>) {
        router.add(GoalEndpoints.list) { $0.read(list) }
        router.add(GoalEndpoints.new) { $0.read(new) }
        router.add(GoalEndpoints.create) { $0.write(create) }
        router.add(GoalEndpoints.show) { $0.read(show) }
        router.add(GoalEndpoints.edit) { $0.read(edit) }
        router.add(GoalEndpoints.update) { $0.write(update) }
        router.add(GoalEndpoints.close) { $0.write(close) }
        router.add(GoalEndpoints.reopen) { $0.write(reopen) }
        router.add(GoalEndpoints.addNote) { $0.write(addNote) }
        router.add(GoalEndpoints.mine) { $0.read(mine) }
    }

    /// Today in the clinic's calendar, not the server's.
    /// A clinician whose specialties cover `kind`; anyone else is refused (403), before anything changes.
    static func requireManager(of kind: GoalKind, _ context: RequestContext) throws -> Actor {
        let actor = try context.requireActor()
        guard GoalAccess.mayManage(kind, actor) else { throw AppError.forbidden }
        return actor
    }

    @Sendable static func list(_ context: RequestContext, _ db: Database, _ patientId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let list = try GoalQueries.list(patientId: patientId, visibleTo: actor, today: context.today,
                                        timeZone: context.configuration.timeZone, db)
        return .page("goals/list", title: "goal_list_title", GoalListPage(list, actor: actor, context: context))
    }

    // MARK: - New and edit

    @Sendable static func new(_ context: RequestContext, _ db: Database, _ patientId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let person = try PeopleQueries.person(patientId, visibleTo: actor, db)
        guard let kind = context.request.query["kind"].flatMap(GoalKind.init(rawValue:)) else {
            guard !GoalAccess.areas(of: actor).isEmpty else { throw AppError.forbidden }
            return .page("goals/kinds", title: "goal_new_title",
                         GoalKindsPage(patientId: patientId, patientName: person.user.displayName, actor: actor, context.t))
        }
        _ = try requireManager(of: kind, context)
        let start = context.today, end = ISODate.adding(27, to: start)
        let form = FormState(values: ["kind": kind.rawValue, "startsOn": start, "endsOn": end, "reviewOn": end,
                                      "aggregate": GameAggregate.best.rawValue, "direction": GoalDirection.atMost.rawValue,
                                      "minWords": "2"])
        return .page("goals/form", title: "goal_new_title",
                     GoalFormPage(patientId: patientId, patientName: person.user.displayName, kind: kind, goalId: nil, form: form,
                                  options: try GoalQueries.options(patientId: patientId, db), context.t))
    }

    @Sendable static func create(_ context: RequestContext, _ db: Database, _ patientId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let person = try PeopleQueries.person(patientId, visibleTo: actor, db)
        guard let kind = GoalKind(rawValue: context.request.form["kind"] ?? "") else { throw AppError.badRequest }
        _ = try requireManager(of: kind, context)
        var form = FormState(context.request.form, fields: GoalInput.fieldNames)
        let options = try GoalQueries.options(patientId: patientId, db)
        guard let input = GoalInput.read(&form, kind: kind, options: options, today: context.today, context.format, context.t) else {
            return .page("goals/form", title: "goal_new_title",
                         GoalFormPage(patientId: patientId, patientName: person.user.displayName, kind: kind, goalId: nil,
                                      form: form, options: options, context.t), status: .unprocessableContent)
        }
        let goal = try Goals.create(input, patientId: patientId, by: actor, audit: context.audit, db)
        return .redirect(to: GoalEndpoints.show.path(patientId, goal.id!), flash: "goal_created")
    }

    @Sendable static func edit(_ context: RequestContext, _ db: Database, _ patientId: Int64, _ goalId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let (person, goal) = try GoalQueries.goal(goalId, patientId: patientId, visibleTo: actor, db)
        _ = try requireManager(of: goal.goalKind, context)
        return .page("goals/form", title: "goal_edit_title",
                     GoalFormPage(patientId: patientId, patientName: person.user.displayName, kind: goal.goalKind, goalId: goalId,
                                  form: GoalInput.formState(of: goal), options: try GoalQueries.options(patientId: patientId, db),
                                  conflict: goal.isClosed ? context.t["goal_conflict_closed"] : nil, context.t))
    }

    @Sendable static func update(_ context: RequestContext, _ db: Database, _ patientId: Int64, _ goalId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let (person, goal) = try GoalQueries.goal(goalId, patientId: patientId, visibleTo: actor, db)
        _ = try requireManager(of: goal.goalKind, context)
        var form = FormState(context.request.form, fields: GoalInput.fieldNames)
        form.values["kind"] = goal.kind
        let options = try GoalQueries.options(patientId: patientId, db)
        func page(conflict: String?, status: Status) -> Reply {
            .page("goals/form", title: "goal_edit_title",
                  GoalFormPage(patientId: patientId, patientName: person.user.displayName, kind: goal.goalKind, goalId: goalId,
                               form: form, options: options, conflict: conflict, context.t), status: status)
        }
        guard let input = GoalInput.read(&form, kind: goal.goalKind, options: options, today: context.today, context.format, context.t)
        else { return page(conflict: nil, status: .unprocessableContent) }
        do {
            try Goals.update(goalId, patientId: patientId, from: Int(form["version"]) ?? 0, to: input, audit: context.audit, db)
        } catch Goals.Conflict.closed {
            return page(conflict: context.t["goal_conflict_closed"], status: .conflict)
        } catch Goals.Conflict.changed {
            // Saving again replaces the other change knowingly: the form now carries the current version.
            form.values["version"] = "\(goal.version)"
            return page(conflict: context.t["goal_conflict_changed"], status: .conflict)
        }
        return .redirect(to: GoalEndpoints.show.path(patientId, goalId), flash: "goal_updated")
    }

    // MARK: - One goal

    static func goalPage(_ context: RequestContext, patientId: Int64, goalId: Int64, form: FormState, status: Status = .ok,
                         _ db: Database) throws -> Reply {
        let actor = try context.requireActor()
        let detail = try GoalQueries.detail(goalId: goalId, patientId: patientId, visibleTo: actor, today: context.today,
                                            timeZone: context.configuration.timeZone, db)
        return .page("goals/show", title: "goal_title", GoalPage(detail, actor: actor, form: form, context: context), status: status)
    }

    @Sendable static func show(_ context: RequestContext, _ db: Database, _ patientId: Int64, _ goalId: Int64) throws -> Reply {
        try goalPage(context, patientId: patientId, goalId: goalId, form: FormState(), db)
    }

    /// Closes a goal for the reason the clinician chose; without one the page asks for it and nothing changes.
    @Sendable static func close(_ context: RequestContext, _ db: Database, _ patientId: Int64, _ goalId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let (_, goal) = try GoalQueries.goal(goalId, patientId: patientId, visibleTo: actor, db)
        _ = try requireManager(of: goal.goalKind, context)
        guard let reason = GoalClosing(rawValue: context.request.form["reason"] ?? "") else {
            var form = FormState()
            form.fail("reason", context.t["goal_close_reason_required"])
            return try goalPage(context, patientId: patientId, goalId: goalId, form: form, status: .unprocessableContent, db)
        }
        try Goals.setClosed(reason, goalId: goalId, patientId: patientId, audit: context.audit, db)
        return .redirect(to: GoalEndpoints.show.path(patientId, goalId), flash: "goal_closed")
    }

    @Sendable static func reopen(_ context: RequestContext, _ db: Database, _ patientId: Int64, _ goalId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let (_, goal) = try GoalQueries.goal(goalId, patientId: patientId, visibleTo: actor, db)
        _ = try requireManager(of: goal.goalKind, context)
        try Goals.setClosed(nil, goalId: goalId, patientId: patientId, audit: context.audit, db)
        return .redirect(to: GoalEndpoints.show.path(patientId, goalId), flash: "goal_reopened")
    }

    @Sendable static func addNote(_ context: RequestContext, _ db: Database, _ patientId: Int64, _ goalId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        _ = try GoalQueries.goal(goalId, patientId: patientId, visibleTo: actor, db)
        var form = FormState(context.request.form, fields: ["body"])
        guard let body = form.required("body", context.t("error_field_required", ["field": context.t["goal_note_body"]])) else {
            return try goalPage(context, patientId: patientId, goalId: goalId, form: form, status: .unprocessableContent, db)
        }
        try Goals.addNote(goalId: goalId, body: body, by: actor, audit: context.audit, db)
        return .redirect(to: GoalEndpoints.show.path(patientId, goalId), flash: "goal_note_saved")
    }

    // MARK: - The patient's own

    @Sendable static func mine(_ context: RequestContext, _ db: Database) throws -> Reply {
        let actor = try context.requireActor()
        let (goals, progress) = try GoalQueries.mine(patientId: actor.userId, today: context.today,
                                                     timeZone: context.configuration.timeZone, db)
        return .page("goals/mine", title: "goal_mine_title", MyGoalsPage(goals: goals, progress: progress, context: context))
    }
}
