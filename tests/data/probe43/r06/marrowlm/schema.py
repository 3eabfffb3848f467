"""Tiny pydantic-style base: typed fields with defaults, validation, copy."""


class Schema:
    def __init__(self, **data):
        fields = self.fields()
        for name, default in fields.items():
            value = data.pop(name, default)
            ann = self.__annotations_all__()[name]
            if ann in (int, float, str) and not isinstance(value, ann):
                value = ann(value)
            setattr(self, name, value)
        if data:
            raise TypeError(f"unexpected fields: {sorted(data)}")
        self.validate()

    @classmethod
    def __annotations_all__(cls):
        merged = {}
        for klass in reversed(cls.__mro__):
            merged.update(getattr(klass, "__annotations__", {}))
        return merged

    @classmethod
    def fields(cls):
        return {name: getattr(cls, name) for name in cls.__annotations_all__()}

    def validate(self):
        pass

    def model_copy(self, update=None):
        data = {k: getattr(self, k) for k in self.fields()}
        data.update(update or {})
        return type(self)(**data)
