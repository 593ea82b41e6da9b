import HTTPServer

/// Every route of NutritionRoutes, declared once: its method, path and who may call it. Links print
/// their URLs from here (`NutritionEndpoints.name.path(id)`), so a link cannot name a route that is not there.
enum NutritionEndpoints {
    static let review = Endpoint<Int64>(.get, "/patients/:id/nutrition", .signedIn([.clinician], clinicianSpecialty: .nutrition))
    static let printPlan = Endpoint<Int64>(.get, "/patients/:id/nutrition/plan", .signedIn([.clinician], clinicianSpecialty: .nutrition))
    static let newMeal = Endpoint<Int64>(.get, "/patients/:id/meals/new", .signedIn([.clinician], clinicianSpecialty: .nutrition))
    static let createMeal = Endpoint<Int64>(.post, "/patients/:id/meals", .signedIn([.clinician], clinicianSpecialty: .nutrition))
    static let editMeal = Endpoint<Int64, Int64>(.get, "/patients/:id/meals/:meal/edit", .signedIn([.clinician], clinicianSpecialty: .nutrition))
    static let updateMeal = Endpoint<Int64, Int64>(.post, "/patients/:id/meals/:meal", .signedIn([.clinician], clinicianSpecialty: .nutrition))
    static let withdrawMeal = Endpoint<Int64, Int64>(.post, "/patients/:id/meals/:meal/withdraw", .signedIn([.clinician], clinicianSpecialty: .nutrition))
    static let copyDay = Endpoint<Int64>(.post, "/patients/:id/meals/copy", .signedIn([.clinician], clinicianSpecialty: .nutrition))
    static let setTarget = Endpoint<Int64>(.post, "/patients/:id/nutrition/target", .signedIn([.clinician], clinicianSpecialty: .nutrition))
    static let addWeight = Endpoint<Int64>(.post, "/patients/:id/weights", .signedIn([.clinician], clinicianSpecialty: .nutrition))
    static let showFoods = Endpoint< >(.get, "/foods", .signedIn([.clinician], clinicianSpecialty: .nutrition))
    static let createFood = Endpoint< >(.post, "/foods", .signedIn([.clinician], clinicianSpecialty: .nutrition))
    static let editFood = Endpoint<Int64>(.get, "/foods/:id/edit", .signedIn([.clinician], clinicianSpecialty: .nutrition))
    static let updateFood = Endpoint<Int64>(.post, "/foods/:id", .signedIn([.clinician], clinicianSpecialty: .nutrition))
    static let mergeFood = Endpoint<Int64>(.post, "/foods/:id/merge", .signedIn([.clinician], clinicianSpecialty: .nutrition))
    static let removeFood = Endpoint<Int64>(.post, "/foods/:id/remove", .signedIn([.clinician], clinicianSpecialty: .nutrition))
}
