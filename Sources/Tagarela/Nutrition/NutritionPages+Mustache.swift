import Mustache

// Rendered once per chosen food for the whole prescription form (`nutrition/food-options`), so it
// answers Mustache directly, as the usage history's rows do.

extension FoodChoices: MustacheParent {
    func child(named name: String) -> Any? { name == "options" ? options : nil }
}
